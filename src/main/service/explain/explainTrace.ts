import type { Hex } from 'viem'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import { collectLogs, decodeEvent } from './collectEvents'
import { buildContractBook } from './contractBook'
import { decodeCallTree, explainFrameError } from './decodeCallTree'
import { describeFailedPhase } from './describeFailedPhase'
import type { ExplainContext } from './explainContext'
import { explainPhases } from './explainPhases'
import { findOperationFrames } from './findOperationFrames'
import { readBalanceChanges } from './readBalanceChanges'
import type { ExplainedPhase, Explanation, TracedFrame } from './types'

export type ExplainTraceParameters = {
  entryPoint: EntryPointModule
  userOperation: UserOperationBase
  userOpHash: Hex
  /** Traces the handleOps call (callTracer with its logs). */
  trace: () => Promise<TracedFrame>
  /** Balances before: at the block before the bundle's, or now for a simulation. */
  beforeBlock: bigint | 'latest'
}

type TraceParts = Pick<Explanation, 'phases' | 'calls' | 'events' | 'balanceChanges' | 'reason'> & {
  /** handleOps itself reverted (a validation failure: the EntryPoint refuses the whole call). */
  handleOpsReverted: boolean
}

/**
 * One operation's part of a handleOps trace: its phases, the decoded call tree, its events and balance changes,
 * decoded with what the service knows (the operation's sender named from its code).
 */
export async function explainTrace(
  context: ExplainContext,
  { entryPoint, userOperation, userOpHash, trace, beforeBlock }: ExplainTraceParameters,
): Promise<TraceParts> {
  const { chain, entryPoints, store } = context
  const [handleOps, book] = await Promise.all([
    trace(),
    buildContractBook({ chain, entryPoints: entryPoints.list, store, accounts: [userOperation.sender] }),
  ])
  const { sender, paymaster } = entryPoint.readEntities(userOperation)
  const frames = findOperationFrames({
    handleOps,
    layout: entryPoint.traceLayout,
    sender,
    paymaster,
    userOpHash,
  })
  const phases = explainPhases(frames, entryPoint.phaseGasLimits(userOperation), book)
  const own = [
    frames.deployment,
    frames['account-validation'],
    frames['paymaster-validation'],
    frames.inner,
  ].filter((frame): frame is TracedFrame => frame !== undefined)
  // The operation's own frames, and the EntryPoint's events that name its userOpHash (AccountDeployed,
  // UserOperationEvent, ...), in the order they were emitted.
  const hashTopic = userOpHash.toLowerCase()
  const events = collectLogs(handleOps, {
    call: (frame) => own.includes(frame),
    log: (log) => log.topics.some((topic) => topic.toLowerCase() === hashTopic),
  }).map((log) => decodeEvent(log, book))
  const balanceChanges = await readBalanceChanges({ chain, book, frames: own, events, beforeBlock })
  return {
    phases,
    calls: decodeCallTree(handleOps, book),
    events,
    balanceChanges,
    handleOpsReverted: handleOps.error !== undefined,
    reason:
      summarize(phases) ??
      (handleOps.error ? `handleOps reverted: ${explainFrameError(handleOps, book)?.text}` : null),
  }
}

/** The first failed phase, in one line. */
function summarize(phases: readonly ExplainedPhase[]): string | null {
  const failed = phases.find((phase) => phase.error)
  return failed ? describeFailedPhase(failed) : null
}
