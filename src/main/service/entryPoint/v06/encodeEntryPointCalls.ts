import { type Address, type Hex, toFunctionSelector } from 'viem'
import { addressWord, encodeBytes, uintWord, word } from '../abiWords'
import type { UserOperationV06 } from './userOperation'

/**
 * ABI encoding of the EntryPoint v0.6 calls the bundler makes for every operation (simulateValidation,
 * simulateHandleOp, handleOps) and of the UserOperation tuple, written out by hand: the byte-for-byte result of
 * viem's encodeFunctionData (tested against it) at a fraction of the CPU, since the generic encoder walks the
 * ABI and builds every word as a separate string.
 */

const selectors = {
  simulateValidation: toFunctionSelector(
    'simulateValidation((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes))',
  ).slice(2),
  simulateHandleOp: toFunctionSelector(
    'simulateHandleOp((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes),address,bytes)',
  ).slice(2),
  handleOps: toFunctionSelector(
    'handleOps((address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)[],address)',
  ).slice(2),
}

/** Head of the tuple: 11 words (bytes fields hold their offsets). */
const TUPLE_HEAD_BYTES = 11 * 32

/** `EntryPoint.simulateValidation(op)` calldata. */
export function encodeSimulateValidation(op: UserOperationV06): Hex {
  return `0x${selectors.simulateValidation}${word(32)}${encodeUserOperationTuple(op)}`
}

/** `EntryPoint.simulateHandleOp(op, target, targetCallData)` calldata. */
export function encodeSimulateHandleOp(op: UserOperationV06, target: Address, targetCallData: Hex): Hex {
  const tuple = encodeUserOperationTuple(op)
  const callDataOffset = 3 * 32 + tuple.length / 2
  return `0x${selectors.simulateHandleOp}${word(96)}${addressWord(target)}${word(callDataOffset)}${tuple}${encodeBytes(targetCallData)}`
}

/** `EntryPoint.handleOps(ops, beneficiary)` calldata. */
export function encodeHandleOps(ops: readonly UserOperationV06[], beneficiary: Address): Hex {
  const tuples = ops.map(encodeUserOperationTuple)
  let offsets = ''
  let offset = ops.length * 32
  for (const tuple of tuples) {
    offsets += word(offset)
    offset += tuple.length / 2
  }
  return `0x${selectors.handleOps}${word(64)}${addressWord(beneficiary)}${word(ops.length)}${offsets}${tuples.join('')}`
}

/** The UserOperation as an ABI-encoded tuple (hex without 0x), as it sits in calldata after its offset. */
export function encodeUserOperationTuple(op: UserOperationV06): string {
  const initCode = encodeBytes(op.initCode)
  const callData = encodeBytes(op.callData)
  const paymasterAndData = encodeBytes(op.paymasterAndData)
  const signature = encodeBytes(op.signature)
  let offset = TUPLE_HEAD_BYTES
  const initCodeOffset = offset
  offset += initCode.length / 2
  const callDataOffset = offset
  offset += callData.length / 2
  const paymasterAndDataOffset = offset
  offset += paymasterAndData.length / 2
  const signatureOffset = offset
  return (
    addressWord(op.sender) +
    uintWord(op.nonce) +
    word(initCodeOffset) +
    word(callDataOffset) +
    uintWord(op.callGasLimit) +
    uintWord(op.verificationGasLimit) +
    uintWord(op.preVerificationGas) +
    uintWord(op.maxFeePerGas) +
    uintWord(op.maxPriorityFeePerGas) +
    word(paymasterAndDataOffset) +
    word(signatureOffset) +
    initCode +
    callData +
    paymasterAndData +
    signature
  )
}
