import type { Logger } from '../../log/logger'
import type { NodeRequest } from '../node/nodeRpcError'
import type { JournalEntry } from './openWriteJournal'

export type ReplayResult = { replayed: number; alreadyThere: number; failed: number }

const MINED_WAIT_MS = 2000

/**
 * Sends the node what its loaded state lacks of the journal's calls (openWriteJournal.ts), in the order they
 * landed:
 * - a transaction the state holds (found by its hash) is skipped; one it lacks is sent again as it was (the same
 *   signed bytes), in a block at its first timestamp, and waited for while the node mines on its own;
 * - a dev method is sent again unless a transaction journaled after it is already in the state (then the state
 *   was saved after it).
 * A call the node refuses now (a transaction whose nonce was taken) is logged and skipped: the rest still goes.
 */
export async function replayWrites(p: {
  request: NodeRequest
  entries: readonly JournalEntry[]
  log: Logger
}): Promise<ReplayResult> {
  const { request, entries, log } = p
  const present = await Promise.all(
    entries.map(async (entry) =>
      entry.kind === 'transaction' && entry.hash
        ? (await request('eth_getTransactionByHash', [entry.hash]).catch(() => null)) !== null
        : false,
    ),
  )
  const lastPresent = present.lastIndexOf(true)
  const toReplay = orderByLanding(
    entries.filter((entry, i) => !present[i] && (entry.kind === 'transaction' || i > lastPresent)),
  )
  const result: ReplayResult = { replayed: 0, alreadyThere: entries.length - toReplay.length, failed: 0 }
  let automine = true
  for (const entry of toReplay) {
    try {
      if (entry.kind === 'transaction') {
        if (entry.timestamp !== undefined)
          await request('evm_setNextBlockTimestamp', [entry.timestamp]).catch(() => undefined)
        const answer = await request(entry.method, entry.params)
        const hash = entry.hash ?? (typeof answer === 'string' ? answer : undefined)
        if (automine && hash) await waitUntilMined(request, hash)
      } else {
        await request(entry.method, entry.params)
        automine = readsAutomine(entry, automine)
      }
      result.replayed++
    } catch (err) {
      result.failed++
      log.warn({ err, method: entry.method, seq: entry.seq }, 'a journaled chain write could not be replayed')
    }
  }
  return result
}

/**
 * Transactions in the order of the blocks they landed in (calls answered concurrently may be journaled out of
 * order); a dev method stays right after the transaction journaled before it.
 */
function orderByLanding(entries: JournalEntry[]): JournalEntry[] {
  let block = -1
  return entries
    .map((entry, index) => {
      if (entry.block !== undefined) block = entry.block
      return { entry, index, block }
    })
    .sort((a, b) => a.block - b.block || a.index - b.index)
    .map(({ entry }) => entry)
}

/** Whether the node mines each transaction at once after this mining-mode call. */
function readsAutomine(entry: JournalEntry, automine: boolean): boolean {
  const [first] = Array.isArray(entry.params) ? entry.params : []
  if (/^(evm|anvil|hardhat)_setAutomine$/.test(entry.method)) return first === true
  if (/^(evm|anvil)_setIntervalMining$/.test(entry.method)) return Number(first) === 0
  return automine
}

async function waitUntilMined(request: NodeRequest, hash: string): Promise<void> {
  const until = Date.now() + MINED_WAIT_MS
  while (Date.now() < until) {
    if ((await request('eth_getTransactionReceipt', [hash])) !== null) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
