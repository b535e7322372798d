import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { AddressSchema, toHexQuantity } from '../userOperationSchema'
import type { GetBundler } from './bundlerAccess'

/**
 * `debug_bundler_getStakeStatus(address, entryPoint)` (the reference bundler's shape): the entity's stake on that
 * EntryPoint, `{stakeInfo: {addr, stake, unstakeDelaySec}, isStaked}`, as ERC-7562 judges it.
 */
export const debugBundlerGetStakeStatus = (getBundler: GetBundler) =>
  defineMethod({
    name: 'debug_bundler_getStakeStatus',
    admin: true,
    params: z.tuple([AddressSchema, AddressSchema]).rest(z.unknown()),
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
