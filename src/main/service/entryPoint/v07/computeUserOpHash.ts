import type { Address, Hash, Hex } from 'viem'
import { keccak256Words } from '../../chain/keccak256'
import type { PackedUserOperation } from './packUserOperation'

const word = (value: bigint) => value.toString(16).padStart(64, '0')
const addressWord = (address: Address) => `000000000000000000000000${address.slice(2).toLowerCase()}`
const hashOf = (data: Hex) => keccak256Words(data.slice(2))

/**
 * abi.encode of the packed operation's fields as both v0.7 and v0.8 hash them (the `bytes` fields by their
 * keccak256; `initCodeHash` replaces keccak256(initCode) where given: v0.8's EIP-7702 override).
 */
export function encodePackedFields(op: PackedUserOperation, initCodeHash?: string): string {
  return (
    addressWord(op.sender) +
    word(op.nonce) +
    (initCodeHash ?? hashOf(op.initCode)) +
    hashOf(op.callData) +
    op.accountGasLimits.slice(2).padStart(64, '0') +
    word(op.preVerificationGas) +
    op.gasFees.slice(2).padStart(64, '0') +
    hashOf(op.paymasterAndData)
  )
}

/** EntryPoint v0.7 `getUserOpHash`: keccak256(abi.encode(keccak256(abi.encode(fields)), entryPoint, chainId)). */
export function computeUserOpHashV07(op: PackedUserOperation, chainId: number, entryPoint: Address): Hash {
  return `0x${keccak256Words(keccak256Words(encodePackedFields(op)) + addressWord(entryPoint) + word(BigInt(chainId)))}`
}
