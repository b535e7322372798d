import type { Logger } from '../../log/logger'
import type { NodeRequest } from '../node/nodeRpcError'

export type StateSaver = { stop: () => Promise<void> }

/**
 * Dumping may take at most about 1/DUMP_COST_FACTOR of the time: anvil serializes every block and transaction it
 * keeps, so a dump gets dearer as the chain's history grows (half a second of anvil's CPU with 1,500 blocks of
 * 8 KB transactions). After a dump that took t, the next waits at least DUMP_COST_FACTOR × t.
 */
const DUMP_COST_FACTOR = 20

/**
 * How often a chain that never goes quiet (a load, an SDK sending operation after operation) is dumped. The dump is
 * not what makes a write durable: the write journal has every state-changing call on disk before it is answered
 * (openWriteJournal.ts), and a restart replays what the saved state lacks. A busy dump only shortens that replay,
 * and it is dear: with the account zoo a fresh chain's state was 3.5 MB (1.8 MB since its deployment's blocks are
 * left out), and one dump cost the service about 110 ms of CPU and anvil about 70 ms. Every 3 s that was 3.5 ms of the service's CPU per operation of a sequential SDK loop (a fifth
 * of it); every 30 s it is a tenth of that. A kill of the service and anvil loses nothing either way (the restart
 * replays at most 30 s of writes); a power cut, which the journal (in the page cache, not synced) does not survive,
 * can lose up to 30 s of a busy chain's writes instead of 3 s.
 */
export const BUSY_DUMP_INTERVAL_MS = 30_000

/**
 * Saves the embedded chain's state shortly after it changes: every `intervalMs` it looks at the block number
 * (and at dev methods such as anvil_setBalance that change state without a block). Once the chain has been quiet
 * for a tick it dumps; while blocks keep coming (a benchmark, a burst of bundles) it dumps at most every
 * `busyIntervalMs` (BUSY_DUMP_INTERVAL_MS), so a whole-state dump never runs on every block of a busy chain; and
 * never sooner than DUMP_COST_FACTOR times as long as the last dump took, so a long history does not turn the chain's
 * time into dumps.
 */
export function startStateSaver(p: {
  /** The embedded node's transport (IPC: a tick costs a tenth of an HTTP fetch). */
  request: NodeRequest
  /** Saves the whole state (a journal checkpoint around anvil_dumpState). */
  save: () => Promise<unknown>
  /** State-changing calls so far (the write journal's count): dev methods change state without a block. */
  writeCount: () => number
  log: Logger
  intervalMs?: number
  busyIntervalMs?: number
  /**
   * Drops the node's old history (compactChainHistory.ts) instead of a save, when `due` says so for a quiet (or busy)
   * chain; `run` saves too, and answers false when it did nothing (then a save goes ahead as usual).
   */
  compaction?: { due: (quiet: boolean) => boolean; run: () => Promise<boolean> }
  /**
   * While true no save or compaction starts (a snapshot the journal can revert to by a note: a save would make its
   * revert a whole-state save; the journal holds every write meanwhile).
   */
  isHeld?: () => boolean
}): StateSaver {
  const intervalMs = p.intervalMs ?? 250
  const busyIntervalMs = p.busyIntervalMs ?? BUSY_DUMP_INTERVAL_MS
  let lastBlock: string | undefined
  let lastWriteCount = p.writeCount()
  /** Block and write count seen at the previous tick (to tell a quiet chain from a busy one). */
  let seenBlock: string | undefined
  let seenWriteCount = lastWriteCount
  let lastDumpAt = Date.now()
  let nextDumpNotBefore = 0
  let running: Promise<void> | undefined
  let stopped = false

  const tick = async () => {
    if (p.isHeld?.()) return
    try {
      const block = (await p.request('eth_blockNumber', [])) as string
      const writeCount = p.writeCount()
      if (lastBlock === undefined) lastBlock = seenBlock = block
      const changedSinceDump = block !== lastBlock || writeCount !== lastWriteCount
      const quiet = block === seenBlock && writeCount === seenWriteCount
      seenBlock = block
      seenWriteCount = writeCount
      const now = Date.now()
      let saved = now >= nextDumpNotBefore && p.compaction?.due(quiet) === true && (await p.compaction.run())
      if (
        !saved &&
        changedSinceDump &&
        now >= nextDumpNotBefore &&
        (quiet || now - lastDumpAt >= busyIntervalMs)
      ) {
        await p.save()
        saved = true
      }
      if (saved) {
        lastBlock = block
        lastWriteCount = writeCount
        lastDumpAt = Date.now()
        nextDumpNotBefore = lastDumpAt + (lastDumpAt - now) * DUMP_COST_FACTOR
      }
    } catch (err) {
      // anvil restarting or busy: the next tick tries again.
      p.log.debug({ err }, 'chain state save skipped')
    }
  }

  const timer = setInterval(() => {
    if (running || stopped) return
    running = tick().finally(() => {
      running = undefined
    })
  }, intervalMs)
  timer.unref()

  return {
    async stop() {
      stopped = true
      clearInterval(timer)
      await running
    },
  }
}
