import type { Address } from 'viem'
import { entryPointAbi } from '../abis/entryPoint'
import type { Chain } from '../types'

/** `EntryPoint.getNonce(sender, key)` (the same function in every version; v0.6 unless `entryPoint` is given): the full 256-bit nonce (key << 64 | sequence). */
export function getNonce(
  chain: Chain,
  sender: Address,
  key = 0n,
  entryPoint: Address = chain.addresses.entryPoint,
): Promise<bigint> {
  return chain.publicClient.readContract({
    address: entryPoint,
    abi: entryPointAbi,
    functionName: 'getNonce',
    args: [sender, key],
  })
}
