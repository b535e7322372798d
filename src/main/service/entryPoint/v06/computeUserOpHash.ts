import type { Address, Hash, Hex } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'
import { keccak256Words } from '../../chain/keccak256'
import type { Chain } from '../../chain/types'
import type { UserOperationV06 } from './userOperation'

/** `EntryPoint.getUserOpHash(op)` read from the chain. */
export function getUserOpHash(chain: Chain, op: UserOperationV06): Promise<Hash> {
  return chain.publicClient.readContract({
    address: chain.addresses.entryPoint,
    abi: entryPointAbi,
    functionName: 'getUserOpHash',
    args: [op],
  })
}

/**
 * The same v0.6 hash computed off-chain: keccak256(abi.encode(keccak256(pack(op)), entryPoint, chainId)), where
 * pack(op) = abi.encode(sender, nonce, keccak256(initCode), keccak256(callData), callGasLimit,
 * verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas, keccak256(paymasterAndData)).
 * Every field is a static word, so the encoding is written out (computed on every eth_sendUserOperation).
 */
export function computeUserOpHash(op: UserOperationV06, chainId: number, entryPoint: Address): Hash {
  const packed =
    addressWord(op.sender) +
    uintWord(op.nonce) +
    hashOf(op.initCode) +
    hashOf(op.callData) +
    uintWord(op.callGasLimit) +
    uintWord(op.verificationGasLimit) +
    uintWord(op.preVerificationGas) +
    uintWord(op.maxFeePerGas) +
    uintWord(op.maxPriorityFeePerGas) +
    hashOf(op.paymasterAndData)
  return `0x${keccak256Words(keccak256Words(packed) + addressWord(entryPoint) + uintWord(BigInt(chainId)))}`
}

function hashOf(data: Hex): string {
  return keccak256Words(data.slice(2))
}

function uintWord(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new Error(`uint256 out of range: ${value}`)
  return value.toString(16).padStart(64, '0')
}

function addressWord(address: Address): string {
  return `000000000000000000000000${address.slice(2).toLowerCase()}`
}
