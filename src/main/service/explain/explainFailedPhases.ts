import type { Hex } from 'viem'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import { buildOperationContractBook } from './contractBook'
import type { ExplainContext } from './explainContext'
import { explainPhases } from './explainPhases'
import { findOperationFrames } from './findOperationFrames'
import type { ExplainedPhase, TracedFrame } from './types'

export type ExplainFailedPhasesParameters = {
  entryPoint: EntryPointModule
  /** The operation as it was simulated (the estimation's trial, or the operation sent). */
  userOperation: UserOperationBase
  /** The traced call that ran it: handleOps, or a version's simulateHandleOp (the same frames, by its layout). */
  frame: TracedFrame
}

/**
 * The phases of one traced run of an operation that failed, each failure with its frame and decoded reason (no
 * events, balances or call tree: what the errors of estimate and send name). Only called once something failed.
 */
export async function explainFailedPhases(
  context: ExplainContext,
  { entryPoint, userOperation, frame }: ExplainFailedPhasesParameters,
): Promise<ExplainedPhase[]> {
  const { chain } = context
  const book = await buildOperationContractBook(context, entryPoint, userOperation)
  const { sender, paymaster } = entryPoint.readEntities(userOperation)
  const frames = findOperationFrames({
    handleOps: frame,
    layout: entryPoint.traceLayout,
    sender,
    paymaster,
    userOpHash: entryPoint.computeUserOpHash(userOperation, chain.chainId).toLowerCase() as Hex,
  })
  return explainPhases(frames, entryPoint.phaseGasLimits(userOperation), book).filter((phase) => phase.error)
}
