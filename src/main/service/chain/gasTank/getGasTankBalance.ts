import type { Address } from 'viem'
import { verifyingPaymasterAbi } from '../abis/verifyingPaymaster'
import type { Chain } from '../types'

/** The gas tank balance of `paymasterId` on the verifying paymaster (`getBalance`), in wei. */
export function getGasTankBalance(chain: Chain, paymasterId: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.verifyingPaymaster,
    abi: verifyingPaymasterAbi,
    functionName: 'getBalance',
    args: [paymasterId],
  })
}
