import { type Address, type Hex, toFunctionSelector } from 'viem'
import type { UserOperationV06 } from '../../chain/types'

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

const ZERO_WORD = '0'.repeat(64)
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

/** `bytes` in ABI form (hex without 0x): its length word, then the data padded right to whole words. */
export function encodeBytes(data: Hex): string {
  const body = data.slice(2).toLowerCase()
  if (body.length % 2 !== 0) throw new Error(`odd-length hex ${data.slice(0, 20)}…`)
  const length = body.length / 2
  const padding = (64 - (body.length % 64)) % 64
  return word(length) + body + '0'.repeat(padding)
}

function word(value: number): string {
  return value.toString(16).padStart(64, '0')
}

/** A uint256 as one ABI word (hex without 0x). */
export function uintWord(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new Error(`uint256 out of range: ${value}`)
  return value === 0n ? ZERO_WORD : value.toString(16).padStart(64, '0')
}

function addressWord(address: Address): string {
  if (address.length !== 42) throw new Error(`not an address: ${address}`)
  return `000000000000000000000000${address.slice(2).toLowerCase()}`
}
