import type { Address, Hash } from 'viem'
import { getUserOperationHash } from 'viem/account-abstraction'
import { entryPointAbi } from '../abis/entryPoint'
import type { Chain, UserOperationV06 } from '../types'

/** `EntryPoint.getUserOpHash(op)` read from the chain. */
export function getUserOpHash(chain: Chain, op: UserOperationV06): Promise<Hash> {
  return chain.publicClient.readContract({
    address: chain.addresses.entryPoint,
    abi: entryPointAbi,
    functionName: 'getUserOpHash',
    args: [op],
  })
}

/** The same v0.6 hash computed off-chain: keccak256(abi.encode(keccak256(pack(op)), entryPoint, chainId)). */
export function computeUserOpHash(op: UserOperationV06, chainId: number, entryPoint: Address): Hash {
  return getUserOperationHash({
    chainId,
    entryPointAddress: entryPoint,
    entryPointVersion: '0.6',
    userOperation: op,
  })
}
