import type { Hex } from 'viem'
import { readAaCode, readFailureTrace } from '../entryPoint/errors'
import type { EntryPointModule, UserOperationBase, UserOperationPhase } from '../entryPoint/types'
import { RpcError } from '../errors'
import { Erc7769Code } from '../errors/rpcCodes'
import { describeFailedPhase, describeFailingFrame } from './describeFailedPhase'
import type { ExplainContext } from './explainContext'
import { explainFailedPhases } from './explainFailedPhases'
import { traceCallFrames } from './traceFrames'
import type { ExplainedPhase, TracedFrame } from './types'

/** The rejections that come from a frame that reverted or ran out of gas: validation, paymaster, execution. */
const EXPLAINED_CODES = new Set<number>([
  Erc7769Code.simulateValidation,
  Erc7769Code.simulatePaymasterValidation,
  Erc7769Code.executionReverted,
])

/** The phase an EntryPoint code is about: AA1x the deployment, AA2x the account, AA3x the paymaster, AA5x postOp. */
const PHASE_OF_AA: Record<string, UserOperationPhase> = {
  AA1: 'deployment',
  AA2: 'account-validation',
  AA3: 'paymaster-validation',
  AA5: 'postOp',
}

export type ExplainRejectionParameters = {
  entryPoint: EntryPointModule
  /** The signed operation of eth_sendUserOperation: traced in handleOps when the rejection carries no trace. */
  userOperation?: UserOperationBase
}

/**
 * The rejection of an estimate or a send, naming the phase, the frame the failure started in and its decoded
 * reason (`execution reverted in Ledger.debit(address,uint256) at 0x…: InsufficientBalance(5, 7)`,
 * `AA23 reverted in BadSignatureAccount.validateUserOp(…) at 0x…: BadSignature()`), with the same fields in its
 * `data` besides those it had. The frame comes from the estimation's own traced simulation, or (a send's validation)
 * from a trace of handleOps made now: only once something failed. Any other error, or one whose frame cannot be
 * found, is returned as it was.
 */
export async function explainRejection(
  context: ExplainContext,
  err: unknown,
  { entryPoint, userOperation }: ExplainRejectionParameters,
): Promise<unknown> {
  if (!(err instanceof RpcError) || !EXPLAINED_CODES.has(err.rpcCode)) return err
  try {
    const trace =
      readFailureTrace(err) ??
      (userOperation
        ? { frame: await traceHandleOps(context, entryPoint, userOperation), userOperation }
        : undefined)
    if (!trace) return err
    const data = (err.data && typeof err.data === 'object' ? err.data : {}) as Record<string, unknown>
    const failed = await explainFailedPhases(context, { entryPoint, ...trace })
    const phase = pickPhase(failed, err.shortMessage, data.phase)
    if (!phase?.error) return err
    const { error } = phase
    return new RpcError(describeRejection(err.shortMessage, phase), err.rpcCode, {
      data: {
        ...data,
        // The failing frame's own revert (BadSignature()), before the EntryPoint's FailedOp that wraps it.
        revertData: error.revert.data ?? data.revertData,
        phase: phase.name,
        address: error.address,
        contract: error.contract,
        function: error.function,
        reason: error.reason,
        ...(error.raise ? { raise: error.raise } : {}),
      },
      cause: err,
      httpStatus: err.rpcHttpStatus,
    })
  } catch {
    // The node could not trace it: the rejection as the EntryPoint gave it is still true.
    return err
  }
}

/**
 * The failed phase the rejection is about: the one its data names (v0.9's errors without an AA code), else the one
 * its AA code names, else (-32521) the execution.
 */
function pickPhase(
  failed: readonly ExplainedPhase[],
  message: string,
  named: unknown,
): ExplainedPhase | undefined {
  const aaCode = readAaCode(message)
  const wanted = typeof named === 'string' ? named : aaCode ? PHASE_OF_AA[aaCode.slice(0, 3)] : 'execution'
  return failed.find((phase) => phase.name === wanted)
}

/**
 * The AA code and the EntryPoint's words first (clients match on them), then the frame and the decoded reason:
 * `AA23 reverted in BadSignatureAccount.validateUserOp(…) at 0x…: BadSignature()`; without an AA code, the phase's
 * own line (`execution reverted in …`).
 */
function describeRejection(message: string, phase: ExplainedPhase): string {
  const error = phase.error
  if (!error || !readAaCode(message)) return describeFailedPhase(phase) ?? message
  const head = message.split(': ')[0] ?? message
  if (error.raise) return `${head}: ${error.reason}`
  // Not out of gas: `AA23 reverted (or OOG)`, `AA13 initCode failed or OOG` lose their `or OOG`.
  return `${head.replace(/ \(?or OOG\)?$/, '')} in ${describeFailingFrame(error)}: ${error.reason}`
}

/** handleOps([op]) from the executor, traced against the latest block with the state its bundle would carry. */
async function traceHandleOps(
  context: ExplainContext,
  entryPoint: EntryPointModule,
  userOperation: UserOperationBase,
): Promise<TracedFrame> {
  const { chain } = context
  const [plan, block] = await Promise.all([
    entryPoint.planBundle(chain, [userOperation]),
    chain.publicClient.getBlock({ blockTag: 'latest' }),
  ])
  return traceCallFrames(
    chain,
    {
      from: chain.executor.address,
      to: entryPoint.address,
      data: entryPoint.encodeHandleOps([userOperation], chain.executor.address) as Hex,
      gas: block.gasLimit,
    },
    plan.stateOverride,
  )
}
