import type { Hex } from 'viem'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import { boundCallTree, boundEvents } from './boundExplanation'
import { checkAuthorization } from './checkAuthorization'
import { collectLogs, decodeEvent } from './collectEvents'
import { buildOperationContractBook, type ContractBook } from './contractBook'
import { decodeCallTree, explainFrameError } from './decodeCallTree'
import { describeFailedPhase } from './describeFailedPhase'
import type { ExplainContext } from './explainContext'
import { explainGas } from './explainGas'
import { explainPhases } from './explainPhases'
import { describeMissingFrames, findOperationFrames } from './findOperationFrames'
import { readBalanceChanges } from './readBalanceChanges'
import { type CheckedAt, readValidationVerdicts } from './readValidity'
import type { ExplainedPhase, Explanation, TracedFrame } from './types'

export type ExplainTraceParameters = {
  entryPoint: EntryPointModule
  userOperation: UserOperationBase
  userOpHash: Hex
  /** Traces the handleOps call (callTracer with its logs). */
  trace: () => Promise<TracedFrame>
  /** Balances before: at the block before the bundle's, or now for a simulation. */
  beforeBlock: bigint | 'latest'
  /** The block the validity windows are checked against (the bundle's, or the latest); null when not known. */
  checkedAt: CheckedAt
}

type TraceParts = Pick<
  Explanation,
  'phases' | 'calls' | 'events' | 'balanceChanges' | 'reason' | 'notes' | 'gas' | 'authorization'
> & {
  /** handleOps itself reverted (a validation failure: the EntryPoint refuses the whole call). */
  handleOpsReverted: boolean
}

/**
 * One operation's part of a handleOps trace: its phases, the decoded call tree, its events and balance changes,
 * decoded with what the service knows (the operation's sender named from its code).
 */
export async function explainTrace(
  context: ExplainContext,
  { entryPoint, userOperation, userOpHash, trace, beforeBlock, checkedAt }: ExplainTraceParameters,
): Promise<TraceParts> {
  const { chain } = context
  const [handleOps, book] = await Promise.all([
    trace(),
    buildOperationContractBook(context, entryPoint, userOperation),
  ])
  const { sender, paymaster } = entryPoint.readEntities(userOperation)
  const frames = findOperationFrames({
    handleOps,
    layout: entryPoint.traceLayout,
    sender,
    paymaster,
    userOpHash,
  })
  const verdicts = readValidationVerdicts(entryPoint, frames, checkedAt)
  const phases = explainPhases(frames, entryPoint.phaseGasLimits(userOperation), book).map((phase) =>
    phase.name === 'account-validation' || phase.name === 'paymaster-validation'
      ? { ...phase, ...verdicts[phase.name] }
      : phase,
  )
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
  const [balanceChanges, authorization] = await Promise.all([
    readBalanceChanges({ chain, book, frames: own, events, beforeBlock }),
    checkAuthorization({ chain, userOperation, beforeBlock }),
  ])
  // Bounded, as it is kept with the operation's history (the balance changes were read from every event).
  const calls = boundCallTree(decodeCallTree(handleOps, book))
  const bounded = boundEvents(events)
  return {
    phases,
    calls: calls.value,
    events: bounded.value,
    balanceChanges,
    gas: explainGas(entryPoint, userOperation, events),
    ...(authorization ? { authorization } : {}),
    notes: [describeMissingFrames(handleOps, frames), ...calls.notes, ...bounded.notes].filter(
      (note): note is string => note !== null,
    ),
    handleOpsReverted: handleOps.error !== undefined,
    reason:
      summarize(phases) ?? (handleOps.error ? describeHandleOpsRevert(entryPoint, handleOps, book) : null),
  }
}

/**
 * Why handleOps itself reverted, when no phase says: the version's own errors in the words every surface answers
 * them with (`InvalidPaymaster(0x…) (AA98 invalid paymaster)`, entryPoint/errors.ts `entryPointErrorRejected`),
 * anything else decoded with what the service knows.
 */
function describeHandleOpsRevert(
  entryPoint: EntryPointModule,
  handleOps: TracedFrame,
  book: ContractBook,
): string {
  const own = handleOps.output ? entryPoint.readEntryPointError(handleOps.output) : null
  return own?.text ?? `handleOps reverted: ${explainFrameError(handleOps, book)?.text}`
}

/** The first failed phase, in one line. */
function summarize(phases: readonly ExplainedPhase[]): string | null {
  const failed = phases.find((phase) => phase.error)
  return failed ? describeFailedPhase(failed) : null
}
