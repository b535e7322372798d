import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema } from '../../schemas/hexSchemas'
import type { GetBundler } from './bundlerAccess'

/**
 * `debug_bundler_getStakeStatus(address, entryPoint)` (the reference bundler's shape): the entity's stake on that
 * EntryPoint, `{stakeInfo: {addr, stake, unstakeDelaySec}, isStaked}`, as ERC-7562 judges it under the bundler's
 * minimum stake and unstake delay; `stake` and `unstakeDelaySec` are decimal strings, as the reference bundler
 * answers and the ERC-4337 test suite reads them.
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
        stake: z.string().meta({ description: 'Wei, decimal' }),
        unstakeDelaySec: z.string().meta({ description: 'Seconds, decimal' }),
      }),
      isStaked: z.boolean(),
    }),
    handler: async ([address, entryPoint]) => {
      const { stakeInfo, isStaked } = await getBundler().getStakeStatus(address, entryPoint)
      return {
        stakeInfo: {
          addr: stakeInfo.addr,
          stake: stakeInfo.stake.toString(),
          unstakeDelaySec: stakeInfo.unstakeDelaySec.toString(),
        },
        isStaked,
      }
    },
  })
