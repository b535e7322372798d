import type { Address } from 'viem'
import type { Chain } from '../types'
import { type GasTankVersion, gasTankAbi, getGasTankPaymaster } from './gasTankPaymaster'

/** The balance of `paymasterId`'s gas tank on the verifying paymaster of `version` (`getBalance`), in wei. */
export function getGasTankBalance(
  chain: Chain,
  paymasterId: Address,
  version: GasTankVersion,
): Promise<bigint> {
  return chain.publicClient.readContract({
    address: getGasTankPaymaster(chain, version),
    abi: gasTankAbi,
    functionName: 'getBalance',
    args: [paymasterId],
  })
}
