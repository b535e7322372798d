import { type Abi, type Address, decodeFunctionData, type Hex, toFunctionSelector, zeroAddress } from 'viem'
import { entryPointSimulationsV07Artifact } from '../../chain/artifacts'
import { encodeBytes, uintWord } from '../abiWords'
import { encodePackedUserOperationTuple } from './encodePackedUserOperationTuple'
import type { PackedUserOperation } from './packUserOperation'

/**
 * The ABI of v0.7's EntryPointSimulations: the EntryPoint's functions (handleOps, getUserOpHash, ...) plus
 * simulateValidation / simulateHandleOp. v0.8's has the same signatures for every function the bundler calls.
 */
export const entryPointSimulationsAbi = entryPointSimulationsV07Artifact.abi as Abi

const PACKED_TUPLE = '(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)'
const selectors = {
  handleOps: toFunctionSelector(`handleOps(${PACKED_TUPLE}[],address)`).slice(2),
  simulateValidation: toFunctionSelector(`simulateValidation(${PACKED_TUPLE})`).slice(2),
  simulateHandleOp: toFunctionSelector(`simulateHandleOp(${PACKED_TUPLE},address,bytes)`).slice(2),
}
const word = (value: number) => uintWord(BigInt(value))
const addressWord = (address: Address) => `000000000000000000000000${address.slice(2).toLowerCase()}`

/*
 * The calls below are written out like v0.6's (encodeEntryPointCall.ts): the byte-for-byte result of viem's
 * encodeFunctionData (tested against it) at a fraction of the CPU, since every operation is encoded for its
 * validation, its estimate and its bundle.
 */

/** `handleOps(ops, beneficiary)` calldata. */
export function encodeHandleOpsV07(ops: readonly PackedUserOperation[], beneficiary: Address): Hex {
  const tuples = ops.map(encodePackedUserOperationTuple)
  let offsets = ''
  let offset = ops.length * 32
  for (const tuple of tuples) {
    offsets += word(offset)
    offset += tuple.length / 2
  }
  return `0x${selectors.handleOps}${word(64)}${addressWord(beneficiary)}${word(ops.length)}${offsets}${tuples.join('')}`
}

/** The packed operations of a handleOps call. */
export function decodeHandleOpsV07(input: Hex): PackedUserOperation[] {
  const { functionName, args } = decodeFunctionData({ abi: entryPointSimulationsAbi, data: input })
  if (functionName !== 'handleOps') throw new Error(`not a handleOps call: ${functionName}`)
  return [...((args?.[0] ?? []) as readonly PackedUserOperation[])]
}

/** `simulateValidation(op)` calldata (EntryPointSimulations). */
export function encodeSimulateValidationV07(op: PackedUserOperation): Hex {
  return `0x${selectors.simulateValidation}${word(32)}${encodePackedUserOperationTuple(op)}`
}

/** `simulateHandleOp(op, target, targetCallData)` calldata (EntryPointSimulations). */
export function encodeSimulateHandleOpV07(
  op: PackedUserOperation,
  target: Address = zeroAddress,
  targetCallData: Hex = '0x',
): Hex {
  const tuple = encodePackedUserOperationTuple(op)
  return `0x${selectors.simulateHandleOp}${word(96)}${addressWord(target)}${word(3 * 32 + tuple.length / 2)}${tuple}${encodeBytes(targetCallData)}`
}
