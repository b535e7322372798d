import { encodeBytes, uintWord } from '../abiWords'
import type { PackedUserOperation } from './packUserOperation'

/** Head of the PackedUserOperation tuple: 9 words (bytes fields hold their offsets). */
const TUPLE_HEAD_BYTES = 9 * 32

/**
 * The PackedUserOperation as an ABI-encoded tuple (hex without 0x), as it sits in handleOps' calldata after its
 * offset: the byte-for-byte result of viem's encoder (tested against it), for the preVerificationGas count.
 */
export function encodePackedUserOperationTuple(op: PackedUserOperation): string {
  const initCode = encodeBytes(op.initCode)
  const callData = encodeBytes(op.callData)
  const paymasterAndData = encodeBytes(op.paymasterAndData)
  const signature = encodeBytes(op.signature)
  const initCodeOffset = TUPLE_HEAD_BYTES
  const callDataOffset = initCodeOffset + initCode.length / 2
  const paymasterAndDataOffset = callDataOffset + callData.length / 2
  const signatureOffset = paymasterAndDataOffset + paymasterAndData.length / 2
  return (
    `000000000000000000000000${op.sender.slice(2).toLowerCase()}` +
    uintWord(op.nonce) +
    uintWord(BigInt(initCodeOffset)) +
    uintWord(BigInt(callDataOffset)) +
    op.accountGasLimits.slice(2).padStart(64, '0') +
    uintWord(op.preVerificationGas) +
    op.gasFees.slice(2).padStart(64, '0') +
    uintWord(BigInt(paymasterAndDataOffset)) +
    uintWord(BigInt(signatureOffset)) +
    initCode +
    callData +
    paymasterAndData +
    signature
  )
}
