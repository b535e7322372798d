import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema, toHexQuantity } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'

/**
 * `debug_bundler_getStakeStatus(address, entryPoint)` (the reference bundler's shape): the entity's stake on that
 * EntryPoint, `{stakeInfo: {addr, stake, unstakeDelaySec}, isStaked}`, as ERC-7562 judges it.
 */
export const debugBundlerGetStakeStatus = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_getStakeStatus',
    summary: "An entity's stake on an EntryPoint and whether ERC-7562 counts it as staked",
    admin: true,
    params: z
      .tuple([AddressSchema.meta({ title: 'address' }), AddressSchema.meta({ title: 'entryPoint' })])
      .rest(z.unknown()),
    result: z.object({
      stakeInfo: z.object({
        addr: z.string(),
        stake: z.string().meta({ description: '0x-hex wei' }),
        unstakeDelaySec: z.string().meta({ description: '0x-hex seconds' }),
      }),
      isStaked: z.boolean(),
    }),
    handler: async ([address, entryPoint]) => {
      const { stakeInfo, isStaked } = await getBundler().getStakeStatus(address, entryPoint)
      return {
        stakeInfo: {
          addr: stakeInfo.addr,
          stake: toHexQuantity(stakeInfo.stake),
          unstakeDelaySec: toHexQuantity(stakeInfo.unstakeDelaySec),
        },
        isStaked,
      }
    },
  })
