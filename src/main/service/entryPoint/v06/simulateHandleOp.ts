import { type Address, type Hex, zeroAddress } from 'viem'
import { decodeRevertReason } from '../../chain/entryPoint/decodeRevert'
import type { Chain } from '../../chain/types'
import type { SimulationOptions } from '../types'
import { encodeSimulateHandleOp } from './encodeEntryPointCalls'
import { callEntryPointSimulation } from './simulateEntryPoint'
import type { UserOperationV06 } from './userOperation'

export type ExecutionResult = {
  preOpGas: bigint
  paid: bigint
  validAfter: number
  validUntil: number
  targetSuccess: boolean
  targetResult: Hex
  /** `targetResult` decoded when the target call reverted with Error(string)/Panic/a known custom error. */
  targetRevertReason: string | null
}

/**
 * `EntryPoint.simulateHandleOp(op, target, targetCallData)` with eth_call: validation plus execution, decoded into
 * the `ExecutionResult`. Pass target = zero address to skip the extra call. Throws FailedOpError / SimulationRevertedError.
 */
export async function simulateHandleOp(
  chain: Chain,
  op: UserOperationV06,
  target: Address = zeroAddress,
  targetCallData: Hex = '0x',
  options: SimulationOptions = {},
): Promise<ExecutionResult> {
  const data = encodeSimulateHandleOp(op, target, targetCallData)
  const decoded = await callEntryPointSimulation(chain, data, ['ExecutionResult'], options)
  if (decoded.errorName !== 'ExecutionResult') throw new Error(`unexpected ${decoded.errorName}`)
  const [preOpGas, paid, validAfter, validUntil, targetSuccess, targetResult] = decoded.args
  return {
    preOpGas,
    paid,
    validAfter,
    validUntil,
    targetSuccess,
    targetResult,
    targetRevertReason: targetSuccess ? null : decodeRevertReason(targetResult, options.extraAbi),
  }
}
