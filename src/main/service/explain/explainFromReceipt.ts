import type { Hex } from 'viem'
import type { EntryPointModule, UserOperationBase } from '../entryPoint/types'
import { boundEvents } from './boundExplanation'
import { decodeEvent } from './collectEvents'
import { buildOperationContractBook } from './contractBook'
import type { ExplainContext } from './explainContext'
import { explainGas } from './explainGas'
import type { Explanation } from './types'

export type ExplainFromReceiptParameters = {
  entryPoint: EntryPointModule
  userOperation: UserOperationBase
  userOpHash: Hex
  transactionHash: Hex
  /** [first, last] index of the operation's execution logs in the receipt (the record's), when known. */
  logRange: readonly [number, number] | null
  /** Why the transaction could not be traced, in the node's words. */
  traceError: string
}

/**
 * What a mined operation's bundle receipt still tells when the node can no longer re-run its transaction: anvil holds
 * the state of the blocks it mined since it last started (or compacted its history), not of the older blocks it
 * loaded from the saved state, so after a restart `debug_traceTransaction` of an operation mined before it answers
 * "Resource not found" though the transaction is on the chain. Its events are the receipt's logs that are the
 * operation's (its execution's, as its ERC-4337 receipt has them, and the EntryPoint's events naming its hash:
 * AccountDeployed, UserOperationEvent), decoded as a trace's are; its gas comes from its UserOperationEvent. No
 * phases, call tree or balance changes: those need the trace. Not kept (its `calls` is null), so a later ask on a
 * node that can trace it gets the whole explanation.
 */
export async function explainFromReceipt(
  context: ExplainContext,
  {
    entryPoint,
    userOperation,
    userOpHash,
    transactionHash,
    logRange,
    traceError,
  }: ExplainFromReceiptParameters,
): Promise<Pick<Explanation, 'events' | 'gas' | 'notes'>> {
  const { chain } = context
  const [receipt, book] = await Promise.all([
    chain.publicClient.getTransactionReceipt({ hash: transactionHash }),
    buildOperationContractBook(context, entryPoint, userOperation),
  ])
  const hashTopic = userOpHash.toLowerCase()
  const own = receipt.logs.filter(
    (log, index) =>
      (logRange !== null && index >= logRange[0] && index <= logRange[1]) ||
      log.topics.some((topic) => topic?.toLowerCase() === hashTopic),
  )
  const events = own.map((log) =>
    decodeEvent({ address: log.address, topics: log.topics as Hex[], data: log.data }, book),
  )
  const bounded = boundEvents(events)
  return {
    events: bounded.value,
    gas: explainGas(entryPoint, userOperation, events),
    notes: [
      `the node can no longer re-run its bundle transaction ${transactionHash} (${traceError}): anvil holds the ` +
        'state of the blocks it mined since it last started or compacted its history, not of older blocks it ' +
        'loaded; its events and gas are told from the transaction receipt, without its phases, call tree or ' +
        'balance changes',
      ...bounded.notes,
    ],
  }
}
