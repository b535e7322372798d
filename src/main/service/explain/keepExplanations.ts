import type { Hex } from 'viem'
import type { UserOperationLog } from '../store/userOperations.repo'
import type { ExplainContext } from './explainContext'
import { traceUserOperation } from './traceUserOperation'
import type { Explanation } from './types'

/**
 * The explanations of the operations the service has seen, kept with their history (userOperationHistory.ts):
 * traced once, then answered from what is kept, across restarts and after the chain has let the transaction go.
 */
export type ExplanationKeeper = {
  /** opstation_traceUserOperation: the kept explanation, else traced now (and kept once the operation is mined). */
  explain: (userOpHash: Hex) => Promise<Explanation>
  /**
   * An operation's record is final: one that reverted in execution or was rejected at admission (the operations
   * developers ask about) is explained in the background, one at a time, off the bundling, receipt and send paths
   * (a rejected one simulated as it was sent); others are traced when first asked about.
   */
  finished: (userOpHash: Hex) => void
  /** Resolves once the background traces queued so far are done (or failed). */
  idle: () => Promise<void>
  /** Drops the traces not begun and waits for the one running. */
  close: () => Promise<void>
}

export type CreateExplanationKeeperParameters = {
  context: ExplainContext & { userOperations: UserOperationLog }
  /** Background traces waiting at most (more are left to first demand). Default 32. */
  maxQueued?: number
  onError?: (err: unknown, userOpHash: Hex) => void
}

/**
 * A mined operation's explanation is final (its transaction is), and a rejected one's tells the chain as it was when
 * it was refused: both are kept; others are told from their record.
 */
const isFinal = (explanation: Explanation) =>
  (explanation.status === 'mined' ||
    explanation.status === 'reverted' ||
    explanation.status === 'rejected') &&
  explanation.calls !== null

/** The statuses of the records explained in the background as soon as they are final. */
const EXPLAINED_WHEN_FINAL = new Set(['failed', 'rejected'])

export function createExplanationKeeper({
  context,
  maxQueued = 32,
  onError = () => {},
}: CreateExplanationKeeperParameters): ExplanationKeeper {
  const { userOperations } = context
  const tracing = new Map<string, Promise<Explanation>>()
  const queue: Hex[] = []
  let running: Promise<void> | null = null
  let closed = false

  const traceAndKeep = (userOpHash: Hex): Promise<Explanation> => {
    const key = userOpHash.toLowerCase()
    const inFlight = tracing.get(key)
    if (inFlight) return inFlight
    const traced = traceUserOperation(context, userOpHash)
      .then((explanation) => {
        if (isFinal(explanation)) userOperations.keepExplanation(key, explanation)
        return explanation
      })
      .finally(() => tracing.delete(key))
    tracing.set(key, traced)
    return traced
  }

  /**
   * The explanation kept for an operation while it still tells its record: not once the record is gone (a trace that
   * ended after a stack revert may have kept the explanation of an operation the revert undid), nor a rejection's
   * once the same operation was sent again and admitted or refused for another reason (nor a mined one's once it was
   * rejected since).
   */
  const keptFor = async (userOpHash: Hex): Promise<Explanation | undefined> => {
    const kept = (await userOperations.findExplanation(userOpHash)) as Explanation | undefined
    if (!kept) return undefined
    const record = await userOperations.find(userOpHash.toLowerCase())
    if (!record || (kept.status === 'rejected') !== (record.status === 'rejected')) return undefined
    // Rejected again for another reason: explained again.
    if (kept.status === 'rejected' && kept.reason !== (record.failure?.reason ?? kept.reason))
      return undefined
    return kept
  }

  const drain = async () => {
    // A turn of the event loop first: the receipt or the rejection that finished the operation is answered before
    // it is explained.
    await new Promise((resolve) => setImmediate(resolve))
    for (let next = queue.shift(); next && !closed; next = queue.shift()) {
      const hash = next
      if (await keptFor(hash)) continue
      await traceAndKeep(hash).catch((err) => onError(err, hash))
    }
    running = null
  }

  return {
    async explain(userOpHash) {
      return (await keptFor(userOpHash)) ?? traceAndKeep(userOpHash)
    },
    finished(userOpHash) {
      if (closed || queue.length >= maxQueued) return
      const status = userOperations.get(userOpHash)?.status
      if (!status || !EXPLAINED_WHEN_FINAL.has(status)) return
      queue.push(userOpHash)
      running ??= drain()
    },
    idle: async () => {
      while (running) await running
    },
    async close() {
      closed = true
      queue.length = 0
      await running
      await Promise.allSettled(tracing.values())
    },
  }
}
