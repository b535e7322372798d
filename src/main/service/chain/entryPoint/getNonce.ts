import type { Address } from 'viem'
import { entryPointAbi } from '../abis/entryPoint'
import type { Chain } from '../types'

/** `EntryPoint.getNonce(sender, key)`: the full 256-bit nonce (key << 64 | sequence). */
export function getNonce(chain: Chain, sender: Address, key = 0n): Promise<bigint> {
  return chain.publicClient.readContract({
    address: chain.addresses.entryPoint,
    abi: entryPointAbi,
    functionName: 'getNonce',
    args: [sender, key],
  })
}
