import type { Address } from 'viem'
import type { EntryPointVersion } from '../../../../shared/entryPointVersions'
import type { Chain } from '../types'
import { gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'

/** The balance of `paymasterId`'s gas tank on the verifying paymaster of `version` (`getBalance`), in wei. */
export function getGasTankBalance(
  chain: Chain,
  paymasterId: Address,
  version: EntryPointVersion,
): Promise<bigint> {
  return chain.publicClient.readContract({
    address: getGasTankPaymaster(chain, version),
    abi: gasTankAbi,
    functionName: 'getBalance',
    args: [paymasterId],
  })
}
