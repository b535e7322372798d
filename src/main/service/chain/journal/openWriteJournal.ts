import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import type { NodeRequest } from '../node/nodeRpcError'
import { classifyNodeWrite } from './classifyNodeWrite'
import { createWriteGate } from './createWriteGate'

/** One state-changing call the node answered, as the journal keeps it until a saved state holds it. */
export type JournalEntry = {
  seq: number
  method: string
  params: unknown
  kind: 'transaction' | 'replayable'
  /** A transaction's hash. */
  hash?: string
  /** The block a transaction landed in and its timestamp, when it was mined by the time it was answered. */
  block?: number
  timestamp?: number
}

/** Where a journaled transaction landed, written once it is known. */
type LandingNote = { landed: number; block: number; timestamp: number }

/**
 * A revert to a snapshot the journal saw taken, with no checkpoint since: the chain is back to the saved state plus
 * the calls journaled up to `reverted` (their seq), so the calls journaled after it and before this line are dropped.
 * `at` (ms since the epoch; absent in notes from before it was kept): a state anvil dumped before it holds what the
 * revert undid.
 */
type RevertNote = { reverted: number; at?: number }

type JournalLine = JournalEntry | LandingNote | RevertNote

const SNAPSHOT_METHODS = new Set(['evm_snapshot', 'anvil_snapshot'])
const REVERT_METHODS = new Set(['evm_revert', 'anvil_revert'])

/**
 * How long the oldest snapshot the journal can revert by a note holds checkpoints back (a per-test snapshot lives
 * seconds; one never reverted to lets the saver go on after this).
 */
const SNAPSHOT_HOLDS_CHECKPOINTS_MS = 10 * 60_000

export type WriteJournal = {
  /** `request` with every state-changing call journaled before its answer is returned. */
  wrap(request: NodeRequest): NodeRequest
  /** State-changing calls answered since the start (the state saver's sign that something changed). */
  writeCount(): number
  /**
   * Runs `save` while no dev call is in flight or let in, so that the state it saves holds every call journaled
   * before it (a transaction journaled during it lands in the next segment and is found by its hash at replay);
   * once it succeeds, those calls are dropped from the journal.
   */
  checkpoint<T>(save: () => Promise<T>): Promise<T>
  /** The calls no saved state is known to hold, oldest first (this run's and what earlier runs left). */
  pending(): JournalEntry[]
  /** When the journal was last written (ms since the epoch), or undefined when it holds nothing. */
  lastWriteAt(): number | undefined
  /**
   * When the last revert the journal notes was answered (ms since the epoch; its last write for a note that does not
   * say), or undefined when it notes none: the chain the journal replays is the saved state's, not a state dumped
   * before then.
   */
  lastRevertAt(): number | undefined
  /** Drops every journaled call: a state saved after the last of them holds them all. */
  clear(): void
  /**
   * Whether a snapshot taken lately (within SNAPSHOT_HOLDS_CHECKPOINTS_MS) may still be reverted to by a note: the
   * state saver then leaves checkpoints for later, since one would make that revert a whole-state save.
   */
  holdsSnapshots(): boolean
  close(): void
}

const LANDING_LOOKUP_MS = 1000
const LANDING_GIVE_UP_MS = 60_000

const SEGMENT = /^writes-(\d{8})\.ndjson$/
const segmentName = (n: number) => `writes-${String(n).padStart(8, '0')}.ndjson`

/**
 * The embedded chain's write-ahead journal: every state-changing call (a transaction, a dev method such as
 * anvil_setBalance) is appended to `<dir>/writes-<n>.ndjson` after the node answered it and before the answer goes
 * back to the caller, so anything a client has seen is on disk even if the service and anvil are killed the next
 * moment (the write is in the OS's page cache: it survives the death of both processes). A checkpoint saves the
 * whole state with no dev call in flight, then removes the journal's older segments. At start, what the saved state
 * lacks is replayed (replayWrites.ts). `save` saves the whole state; a `barrier` call (a reset, a revert to a
 * snapshot) cannot be replayed, so the state is saved right after it, before it is answered.
 */
export function openWriteJournal(p: { dir: string; save: () => Promise<void> }): WriteJournal {
  mkdirSync(p.dir, { recursive: true, mode: 0o700 })
  const segments = readdirSync(p.dir)
    .map((name) => SEGMENT.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b)
  /** Segments that may hold calls no saved state holds; the last one is written to. */
  const open = [...segments]
  const readLines = () => open.flatMap((n) => readSegment(join(p.dir, segmentName(n))))
  const readPending = () => readEntries(readLines())
  // The highest seq written, dropped ones too (a landing note names its entry by seq: none is used twice).
  let seq = readLines().reduce((max, line) => ('seq' in line ? Math.max(max, line.seq) : max), 0)
  let lastWriteAt: number | undefined = segments.length
    ? Math.max(...segments.map((n) => statSync(join(p.dir, segmentName(n))).mtimeMs))
    : undefined
  let current = (segments.at(-1) ?? 0) + 1
  let fd: number | undefined
  let writes = 0
  let closed = false
  const gate = createWriteGate()
  /** Journaled transactions whose landing is not noted yet, by hash. */
  const awaitingLanding = new Map<string, { seq: number; at: number }>()
  let lookup: NodeJS.Timeout | undefined
  /** Checkpoints so far: a snapshot taken before the last one can no longer be reverted to by a note. */
  let checkpoints = 0
  /** Snapshots taken since the last checkpoint, by id: the seq journaled last when each was taken. */
  const snapshots = new Map<string, { seq: number; checkpoints: number; at: number }>()

  const noteLanding = (receipt: unknown) => {
    const landing = readLanding(receipt)
    const waiting = landing && awaitingLanding.get(landing.hash)
    if (!landing || !waiting) return
    awaitingLanding.delete(landing.hash)
    append({ landed: waiting.seq, block: landing.block, timestamp: landing.timestamp })
  }

  /** Reads the receipts nobody read within LANDING_LOOKUP_MS (interval mining, a caller that only wanted the hash). */
  const lookUpLandingsLater = (request: NodeRequest) => {
    if (lookup) return
    lookup = setTimeout(async () => {
      const due = [...awaitingLanding].filter(([, { at }]) => Date.now() - at >= LANDING_LOOKUP_MS)
      for (const [hash, { at }] of due) {
        const receipt = await request('eth_getTransactionReceipt', [hash]).catch(() => null)
        if (receipt) noteLanding(receipt)
        else if (Date.now() - at > LANDING_GIVE_UP_MS) awaitingLanding.delete(hash)
      }
      lookup = undefined
      if (awaitingLanding.size > 0 && !closed) lookUpLandingsLater(request)
    }, LANDING_LOOKUP_MS)
    lookup.unref()
  }

  const append = (entry: JournalLine) => {
    // A landing looked up after the journal closed (the service stopping) is not needed: the stop saved it all.
    if (closed) return
    if (fd === undefined) {
      fd = openSync(join(p.dir, segmentName(current)), 'a', 0o600)
      open.push(current)
    }
    writeSync(fd, `${JSON.stringify(entry)}\n`)
    lastWriteAt = Date.now()
    if ('seq' in entry) writes++
  }

  /** As on anvil: a revert uses up its snapshot and every later one. */
  const forgetSnapshotsFrom = (id: string) => {
    const target = readSnapshotId(id)
    if (target === undefined) return
    for (const key of [...snapshots.keys()]) if ((readSnapshotId(key) ?? -1n) >= target) snapshots.delete(key)
  }

  const removeSegmentsBefore = (end: number) => {
    for (const n of open.filter((n) => n < end)) rmSync(join(p.dir, segmentName(n)), { force: true })
    open.splice(0, open.length, ...open.filter((n) => n >= end))
  }

  const rotate = (): number => {
    if (fd !== undefined) closeSync(fd)
    fd = undefined
    return ++current
  }

  const checkpoint = <T>(save: () => Promise<T>): Promise<T> =>
    gate.exclusive(async () => {
      const next = rotate()
      checkpoints++
      const result = await save()
      removeSegmentsBefore(next)
      if (open.length === 0) lastWriteAt = undefined
      return result
    })

  return {
    wrap: (request) => async (method, params, readBody) => {
      if (SNAPSHOT_METHODS.has(method))
        return gate.shared(async () => {
          const id = await request(method, params, readBody)
          snapshots.set(String(id), { seq, checkpoints, at: Date.now() })
          return id
        })
      const [revertTo] = REVERT_METHODS.has(method) && Array.isArray(params) ? params : []
      const snapshot = snapshots.get(String(revertTo))
      if (snapshot && snapshot.checkpoints === checkpoints)
        // The chain goes back to the saved state plus the calls journaled up to the snapshot: a note says so, and a
        // restart replays those only (no whole-state save on the revert's path).
        return gate.shared(async () => {
          const reverted = await request(method, params, readBody)
          if (reverted === true) {
            append({ reverted: snapshot.seq, at: Date.now() })
            forgetSnapshotsFrom(String(revertTo))
            writes++
          }
          return reverted
        })
      const kind = classifyNodeWrite(method)
      if (kind === 'read') {
        const result = await request(method, params, readBody)
        if (method === 'eth_getTransactionReceipt' && awaitingLanding.size > 0) noteLanding(result)
        return result
      }
      if (kind === 'barrier')
        return checkpoint(async () => {
          if (REVERT_METHODS.has(method)) forgetSnapshotsFrom(String(revertTo))
          else snapshots.clear()
          const result = await request(method, params, readBody)
          writes++
          await p.save()
          return result
        })
      const journal = async () => {
        const result = await request(method, params, readBody)
        const entry: JournalEntry = { seq: ++seq, method, params, kind, hash: readTransactionHash(result) }
        // eth_sendRawTransactionSync answers with the receipt: where it landed goes in the same line.
        const landing = readLanding(result)
        if (landing) Object.assign(entry, { block: landing.block, timestamp: landing.timestamp })
        append(entry)
        return { ...entry, result }
      }
      // A transaction is told apart by its hash at replay, so a checkpoint need not wait for one in flight (an
      // eth_sendRawTransactionSync waits for its block: with automine off, until someone mines, which must not
      // wait behind the checkpoint). A dev call cannot be told apart: a checkpoint waits for those in flight.
      const entry = kind === 'transaction' ? await journal() : await gate.shared(journal)
      // Where the transaction landed is noted from the first receipt anyone reads of it (the bundler, the faucet and
      // wallets all read it; a receipt carries its block's timestamp), else looked up a moment later: never on the
      // caller's path. A kill before the note leaves the transaction replayed at the time of the replay.
      if (entry.hash && entry.block === undefined) {
        awaitingLanding.set(entry.hash, { seq: entry.seq, at: Date.now() })
        lookUpLandingsLater(request)
      }
      return entry.result
    },
    writeCount: () => writes,
    checkpoint,
    holdsSnapshots: () =>
      [...snapshots.values()].some(
        (snapshot) =>
          snapshot.checkpoints === checkpoints && Date.now() - snapshot.at < SNAPSHOT_HOLDS_CHECKPOINTS_MS,
      ),
    pending: readPending,
    lastWriteAt: () => lastWriteAt,
    lastRevertAt: () => {
      const notes = readLines().filter((line): line is RevertNote => 'reverted' in line)
      if (notes.length === 0) return undefined
      return Math.max(...notes.map((note) => note.at ?? lastWriteAt ?? Date.now()))
    },
    clear: () => {
      removeSegmentsBefore(rotate())
      lastWriteAt = undefined
    },
    close: () => {
      closed = true
      clearTimeout(lookup)
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}

/** A segment's lines; a line that does not read (none should: each is one write) ends it. */
function readSegment(path: string): JournalLine[] {
  const lines: JournalLine[] = []
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue
    try {
      lines.push(JSON.parse(line) as JournalLine)
    } catch {
      break
    }
  }
  return lines
}

/**
 * The entries of the segments' lines, each transaction with the block its landing note names; a revert note drops
 * the entries before it journaled after its snapshot.
 */
export function readEntries(lines: readonly JournalLine[]): JournalEntry[] {
  let entries: JournalEntry[] = []
  const bySeq = new Map<number, JournalEntry>()
  for (const line of lines) {
    if ('seq' in line) {
      entries.push(line)
      bySeq.set(line.seq, line)
    } else if ('landed' in line)
      Object.assign(bySeq.get(line.landed) ?? {}, { block: line.block, timestamp: line.timestamp })
    else if ('reverted' in line) entries = entries.filter((entry) => entry.seq <= line.reverted)
  }
  return entries
}

function readSnapshotId(id: string): bigint | undefined {
  try {
    return BigInt(id)
  } catch {
    return undefined
  }
}

/** The hash, block and block timestamp a receipt names (anvil's receipts carry `blockTimestamp`). */
function readLanding(receipt: unknown): { hash: string; block: number; timestamp: number } | undefined {
  const r = receipt as { transactionHash?: unknown; blockNumber?: unknown; blockTimestamp?: unknown } | null
  if (typeof r?.transactionHash !== 'string' || typeof r.blockNumber !== 'string') return undefined
  if (typeof r.blockTimestamp !== 'string' && typeof r.blockTimestamp !== 'number') return undefined
  return { hash: r.transactionHash, block: Number(r.blockNumber), timestamp: Number(r.blockTimestamp) }
}

/** A transaction's hash from the node's answer (eth_sendRawTransactionSync answers with the receipt). */
function readTransactionHash(result: unknown): string | undefined {
  const hash =
    typeof result === 'string' ? result : (result as { transactionHash?: unknown } | null)?.transactionHash
  return typeof hash === 'string' ? hash : undefined
}
