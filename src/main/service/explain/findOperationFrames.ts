import type { Address, Hex } from 'viem'
import type { TraceLayout, UserOperationPhase } from '../entryPoint/types'
import type { TracedFrame } from './types'

/** The frames of one operation in a handleOps trace, by phase (a phase the operation did not reach is missing). */
export type OperationFrames = Partial<Record<UserOperationPhase, TracedFrame>> & {
  /** The EntryPoint's `innerHandleOp` self-call holding execution and postOp (v0.6 too). */
  inner?: TracedFrame
}

export type FindOperationFramesParameters = {
  /** The handleOps frame. */
  handleOps: TracedFrame
  layout: TraceLayout
  sender: Address
  paymaster: Address | null
  userOpHash: Hex
}

const selectorOf = (frame: TracedFrame) => frame.input.slice(0, 10).toLowerCase()
const same = (a: string | undefined, b: string | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase()
/** The frame's calldata carries the userOpHash (validation's second argument, innerHandleOp's UserOpInfo). */
const carries = (frame: TracedFrame, userOpHash: Hex) =>
  frame.input.toLowerCase().includes(userOpHash.slice(2).toLowerCase())

/**
 * Finds an operation's phases among the EntryPoint's calls in a handleOps trace, by the version's layout: its
 * deployment (the SenderCreator's createSender returning the sender), the account's and the paymaster's validation
 * (called with its userOpHash), and in its innerHandleOp the execution call to the sender and the paymaster's postOp.
 */
export function findOperationFrames({
  handleOps,
  layout,
  sender,
  paymaster,
  userOpHash,
}: FindOperationFramesParameters): OperationFrames {
  const calls = handleOps.calls ?? []
  const found: OperationFrames = {}
  const senderWord = sender.slice(2).toLowerCase()
  const createSenders = calls.filter((c) => selectorOf(c) === layout.createSender)
  // A factory that fails does not fail the SenderCreator's createSender (it returns no address, and the EntryPoint
  // answers AA13): the deployment's failure is then its failed call to the factory.
  found.deployment =
    createSenders.find((c) => (c.output ?? '').toLowerCase().endsWith(senderWord)) ??
    createSenders.flatMap((c) => c.calls ?? []).find((call) => call.error)
  found['account-validation'] = calls.find(
    (c) => selectorOf(c) === layout.validateUserOp && same(c.to, sender) && carries(c, userOpHash),
  )
  found['paymaster-validation'] = calls.find(
    (c) =>
      selectorOf(c) === layout.validatePaymasterUserOp && same(c.to, paymaster) && carries(c, userOpHash),
  )
  const inner = calls.find((c) => selectorOf(c) === layout.innerHandleOp && carries(c, userOpHash))
  if (inner) {
    found.inner = inner
    const innerCalls = inner.calls ?? []
    found.execution = innerCalls.find((c) => same(c.to, sender) && same(c.from, handleOps.to ?? null))
    found.postOp = innerCalls.find((c) => selectorOf(c) === layout.postOp && same(c.to, paymaster))
  }
  for (const key of Object.keys(found) as (keyof OperationFrames)[]) if (!found[key]) delete found[key]
  return found
}

/**
 * What an explanation says when its trace holds none of the operation's calls although handleOps did not revert:
 * every operation a handleOps accepts runs in an innerHandleOp carrying its userOpHash, so the trace is not of this
 * operation (a node answering for another call or transaction). Its phases, events and balance changes are then
 * missing, not none, and the explanation says so instead of passing for complete. Null when the trace has them.
 */
export function describeMissingFrames(handleOps: TracedFrame, frames: OperationFrames): string | null {
  if (handleOps.error || frames.inner) return null
  return (
    `the call trace holds none of this operation's calls (no innerHandleOp with its userOpHash under the call to ` +
    `${handleOps.to ?? 'the EntryPoint'}): its phases, events and balance changes could not be read from it, and ` +
    'are missing rather than none'
  )
}
