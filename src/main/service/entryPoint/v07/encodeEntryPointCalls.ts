import { type Abi, type Address, decodeFunctionData, encodeFunctionData, type Hex, zeroAddress } from 'viem'
import { entryPointSimulationsV07Artifact } from '../../chain/artifacts'
import type { PackedUserOperation } from './packUserOperation'

/**
 * The ABI of v0.7's EntryPointSimulations: the EntryPoint's functions (handleOps, getUserOpHash, ...) plus
 * simulateValidation / simulateHandleOp. v0.8's has the same signatures for every function the bundler calls.
 */
export const entryPointSimulationsAbi = entryPointSimulationsV07Artifact.abi as Abi

/** `handleOps(ops, beneficiary)` calldata. */
export function encodeHandleOpsV07(ops: readonly PackedUserOperation[], beneficiary: Address): Hex {
  return encodeFunctionData({
    abi: entryPointSimulationsAbi,
    functionName: 'handleOps',
    args: [ops, beneficiary],
  })
}

/** The packed operations of a handleOps call. */
export function decodeHandleOpsV07(input: Hex): PackedUserOperation[] {
  const { functionName, args } = decodeFunctionData({ abi: entryPointSimulationsAbi, data: input })
  if (functionName !== 'handleOps') throw new Error(`not a handleOps call: ${functionName}`)
  return [...((args?.[0] ?? []) as readonly PackedUserOperation[])]
}

/** `simulateValidation(op)` calldata (EntryPointSimulations). */
export function encodeSimulateValidationV07(op: PackedUserOperation): Hex {
  return encodeFunctionData({ abi: entryPointSimulationsAbi, functionName: 'simulateValidation', args: [op] })
}

/** `simulateHandleOp(op, target, targetCallData)` calldata (EntryPointSimulations). */
export function encodeSimulateHandleOpV07(
  op: PackedUserOperation,
  target: Address = zeroAddress,
  targetCallData: Hex = '0x',
): Hex {
  return encodeFunctionData({
    abi: entryPointSimulationsAbi,
    functionName: 'simulateHandleOp',
    args: [op, target, targetCallData],
  })
}
