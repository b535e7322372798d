import { mkdirSync } from 'node:fs'
import {
  appendFile,
  type FileHandle,
  open,
  readdir,
  readFile,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises'
import { join } from 'node:path'
import type { UserOperationRecord } from '../../../shared/api/userOperations'
import { defaults } from '../chain/constants'
import { type CompactReceipt, compactReceipt, expandReceipt, type NodeReceipt } from './compactReceipt'

/**
 * What the service keeps of mined UserOperations once the chain no longer holds them: the embedded chain keeps the
 * transactions and receipts of its recent blocks only (chain/anvil/spawnAnvil.ts, HISTORY_BLOCKS), and the store
 * document its recent records only (userOperations.repo.ts). Append-only files `<dir>/user-operations-<n>.ndjson`,
 * one line per entry; a later line for the same key wins:
 *
 * - a bundle transaction, written once it is mined: its receipt (compactReceipt.ts) and the operations it carried
 *   as they were sent: `{"k":"b","t":"<transactionHash>","h":["<userOpHash>",…],"r":<receipt>,"o":[<operation>,…]}`;
 * - a finished record, written when it leaves the store document: `{"k":"r","h":"<userOpHash>","s":<seq>,"r":<record>}`;
 * - a mined operation's explanation (explain/keepExplanations.ts), written once it is traced, bounded in size by its
 *   writer: `{"k":"x","h":"<userOpHash>","x":<explanation>}`.
 *
 * Only the keys are read at start (from the keys file written beside each full file, else from the start of each
 * line, without parsing it: 0.2 s against 1.0 s for the 137 MB of 50,000 operations); an entry is read from its file
 * when asked for. The files are bounded: past `maxBytes` (150 MB, about 2.75 KB per operation) the oldest file goes,
 * with its entries.
 */
export type UserOperationHistory = {
  /** Keeps a mined operation's bundle receipt and the operation as it was sent (its wire form, if still known). */
  keepMined: (p: {
    userOpHash: string
    receipt: NodeReceipt
    userOperation: Record<string, unknown> | null
  }) => void
  /** Keeps finished records that leave the store document (the activity feed reads them here). */
  keepRecords: (records: readonly UserOperationRecord[]) => void
  findRecord: (userOpHash: string) => Promise<UserOperationRecord | undefined>
  findReceipt: (transactionHash: string) => Promise<NodeReceipt | undefined>
  /** The operation as sent (wire form), from its bundle's entry. */
  findOperation: (userOpHash: string) => Promise<Record<string, unknown> | undefined>
  /** Keeps a mined operation's explanation (any JSON value; the writer bounds its size). */
  keepExplanation: (userOpHash: string, explanation: unknown) => void
  /** The explanation kept for an operation, if any. */
  findExplanation: (userOpHash: string) => Promise<unknown | undefined>
  /** Whether a mined operation's bundle is kept (without reading it). */
  hasMined: (userOpHash: string) => Promise<boolean>
  /** Records newest first (by `seq`), those with `seq` below `before` when given. */
  listRecords: (options: { limit: number; before?: number }) => Promise<UserOperationRecord[]>
  /** What is kept: bytes of the files, entries. */
  stats: () => {
    bytes: number
    files: number
    records: number
    bundles: number
    operations: number
    explanations: number
  }
  /** Writes what is pending; resolves once it is on disk. */
  flush: () => Promise<void>
  /** Where the history ends now, once what is pending is written (a stack snapshot keeps it). */
  mark: () => Promise<HistoryMark>
  /**
   * Back to `mark` (a revert of the stack): what was kept after it is cut off the files, and what waited to be
   * written is dropped. Without a mark, back to empty (a reset).
   */
  truncateTo: (mark?: HistoryMark) => Promise<void>
  close: () => Promise<void>
}

/** A position in the history's files: the file written to, and its length. */
export type HistoryMark = { file: number; size: number }

export type OpenUserOperationHistoryParameters = {
  dir: string
  /** The files together stay under this (the oldest file is removed first). Default 150 MB. */
  maxBytes?: number
  /** A new file is begun past this size. Default 8 MB. */
  fileBytes?: number
  /** Pending entries are written at most this often. Default 1 s. */
  flushIntervalMs?: number
  onError?: (err: unknown) => void
  /**
   * The chain of records written before records carried their chain (a one-chain service wrote them); default the
   * default embedded chain's.
   */
  legacyChainId?: number
}

export const DEFAULT_HISTORY_MAX_BYTES = 150_000_000
const DEFAULT_FILE_BYTES = 8_000_000

const FILE = /^user-operations-(\d{8})\.ndjson$/
const fileName = (n: number) => `user-operations-${String(n).padStart(8, '0')}.ndjson`
const keysName = (n: number) => `user-operations-${String(n).padStart(8, '0')}.keys`
const BUNDLE_PREFIX = '{"k":"b","t":"'
const RECORD_PREFIX = '{"k":"r","h":"'
const EXPLANATION_PREFIX = '{"k":"x","h":"'
const HASH = /^0x[0-9a-f]{64}$/
const HASH_LENGTH = 66
const NEWLINE = 0x0a

/** Where an entry's line is: file number × 2^32 + byte offset (files stay far below 4 GB). */
type Location = number
const locate = (file: number, offset: number): Location => file * 2 ** 32 + offset
const fileOf = (at: Location) => Math.floor(at / 2 ** 32)
const offsetOf = (at: Location) => at % 2 ** 32

/** A line of a history file, parsed. */
type HistoryLine =
  | { k: 'r'; h: string; s: number; r: UserOperationRecord }
  | { k: 'b'; t: string; h: string[]; r: CompactReceipt; o: (Record<string, unknown> | null)[] }
  | { k: 'x'; h: string; x: unknown }

type BundleEntry = {
  receipt: CompactReceipt
  hashes: string[]
  operations: (Record<string, unknown> | null)[]
}

/** Entries kept and not yet written and indexed, by key (a bundle's by its transaction hash). */
type Unwritten = {
  records: Map<string, UserOperationRecord>
  bundles: Map<string, BundleEntry>
  explanations: Map<string, unknown>
}
const noEntries = (): Unwritten => ({ records: new Map(), bundles: new Map(), explanations: new Map() })

/** Adds an operation to its bundle's entry, or sets the operation of one already there when it is given. */
function keepOperation(entry: BundleEntry, hash: string, operation: Record<string, unknown> | null): void {
  const i = entry.hashes.indexOf(hash)
  if (i === -1) {
    entry.hashes.push(hash)
    entry.operations.push(operation)
  } else if (operation) entry.operations[i] = operation
}

export function openUserOperationHistory({
  dir,
  maxBytes = DEFAULT_HISTORY_MAX_BYTES,
  fileBytes = DEFAULT_FILE_BYTES,
  flushIntervalMs = 1000,
  onError = () => {},
  legacyChainId = defaults.chainId,
}: OpenUserOperationHistoryParameters): UserOperationHistory {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const records = new Map<string, Location>()
  /** Kept records by seq, ascending: seqs[i] is the seq of hashes[i]. */
  const seqs: number[] = []
  const hashes: string[] = []
  const bundles = new Map<string, Location>()
  const operations = new Map<string, Location>()
  const explanations = new Map<string, Location>()
  /** Size of each file, by number. */
  const sizes = new Map<number, number>()
  let current = 1
  /** Entries kept since the last write began. */
  let pending = noEntries()
  /**
   * The entries the write under way took from `pending`: looked up here until their lines are on disk and indexed.
   * In between they were found nowhere, and a mined operation traced then was explained as no longer recorded.
   */
  let inWrite = noEntries()
  /** The first entry `pick` finds among those not yet indexed, the newest first. */
  const findUnwritten = <T>(pick: (entries: Unwritten) => T | undefined): T | undefined => {
    for (const entries of [pending, inWrite]) {
      const found = pick(entries)
      if (found !== undefined) return found
    }
    return undefined
  }
  const handles = new Map<number, Promise<FileHandle>>()
  let timer: NodeJS.Timeout | undefined
  let closed = false
  let writing: Promise<void> = Promise.resolve()

  const indexRecord = (hash: string, seq: number, at: Location) => {
    const previous = records.get(hash)
    records.set(hash, at)
    if (previous !== undefined) return // the same record again (a later version): its seq stands
    let i = seqs.length
    while (i > 0 && (seqs[i - 1] as number) > seq) i--
    seqs.splice(i, 0, seq)
    hashes.splice(i, 0, hash)
  }

  /** Applies a file's key lines (scanKeys) to the indexes. */
  const indexKeys = (file: number, lines: readonly string[]) => {
    for (const line of lines) {
      const [kind, key, a, b] = line.split(' ')
      if (kind === 'r') indexRecord(key as string, Number(a), locate(file, Number(b)))
      else if (kind === 'x') explanations.set(key as string, locate(file, Number(a)))
      else if (kind === 'b') {
        const at = locate(file, Number(a))
        bundles.set(key as string, at)
        for (const hash of (b ?? '').split(',')) if (hash) operations.set(hash, at)
      }
    }
  }

  /** A full file's keys, beside it, so that the next start need not read the file. */
  const writeKeys = (file: number, scanned: { complete: number; lines: string[] }) =>
    writeFile(join(dir, keysName(file)), [`size ${scanned.complete}`, ...scanned.lines].join('\n'), {
      mode: 0o600,
    })

  /**
   * The files there are, read into the indexes: from each file's keys (`.keys`, written once the file is full) when
   * they match it, else from the file itself (a line cut short by a kill is cut off).
   */
  const load = async () => {
    const files = (await readdir(dir))
      .map((name) => FILE.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b)
    for (const file of files) {
      const size = (await stat(join(dir, fileName(file)))).size
      const keys = await readFile(join(dir, keysName(file)), 'latin1').catch(() => '')
      const lines = keys.split('\n')
      if (lines[0] === `size ${size}`) {
        indexKeys(file, lines.slice(1))
        sizes.set(file, size)
        continue
      }
      const scanned = scanKeys(await readFile(join(dir, fileName(file))))
      if (scanned.complete < size) await truncate(join(dir, fileName(file)), scanned.complete)
      indexKeys(file, scanned.lines)
      sizes.set(file, scanned.complete)
      if (file !== files.at(-1)) await writeKeys(file, scanned)
    }
    current = files.at(-1) ?? 1
    if (!sizes.has(current)) sizes.set(current, 0)
  }
  let ready = load()
  ready.catch(onError)

  const handleOf = (file: number) => {
    let handle = handles.get(file)
    if (!handle) {
      handle = open(join(dir, fileName(file)), 'r')
      handles.set(file, handle)
      handle.catch(() => handles.delete(file))
    }
    return handle
  }

  /** The line at `at`, parsed. */
  const readLine = async (at: Location): Promise<HistoryLine> => {
    const handle = await handleOf(fileOf(at))
    let length = 4096
    for (;;) {
      const buffer = Buffer.alloc(length)
      const { bytesRead } = await handle.read(buffer, 0, length, offsetOf(at))
      const end = buffer.subarray(0, bytesRead).indexOf(NEWLINE)
      if (end !== -1) return JSON.parse(buffer.toString('utf8', 0, end))
      if (bytesRead < length) throw new Error('history line without its end')
      length *= 4
    }
  }
  /** A record as its line holds it: one written before records carried their chain takes `legacyChainId`. */
  const readRecord = async (at: Location) => {
    const record = (await readEntry(at)).r as UserOperationRecord
    return record.chainId === undefined ? { ...record, chainId: legacyChainId } : record
  }

  /** A record's or a bundle's line (where `records` or `bundles` points). */
  const readEntry = (at: Location) => readLine(at) as Promise<Exclude<HistoryLine, { k: 'x' }>>

  const dropOldFiles = async () => {
    let total = [...sizes.values()].reduce((sum, size) => sum + size, 0)
    for (const file of [...sizes.keys()].sort((a, b) => a - b)) {
      if (total <= maxBytes || file === current) break
      total -= sizes.get(file) ?? 0
      sizes.delete(file)
      for (const map of [records, bundles, operations, explanations])
        for (const [key, at] of map) if (fileOf(at) === file) map.delete(key)
      for (let i = seqs.length - 1; i >= 0; i--) {
        if (!records.has(hashes[i] as string)) {
          seqs.splice(i, 1)
          hashes.splice(i, 1)
        }
      }
      const handle = handles.get(file)
      handles.delete(file)
      await handle?.then((h) => h.close()).catch(() => {})
      await rm(join(dir, fileName(file)), { force: true })
      await rm(join(dir, keysName(file)), { force: true })
    }
  }

  const write = async () => {
    await ready
    const batch = pending
    if (batch.records.size === 0 && batch.bundles.size === 0 && batch.explanations.size === 0) return
    pending = noEntries()
    inWrite = batch
    try {
      await writeEntries(batch)
    } catch (err) {
      // Not on disk (a full disk, an I/O error): kept for the next write, behind what was kept since.
      requeue(batch)
      schedule()
      throw err
    } finally {
      inWrite = noEntries()
    }
    await dropOldFiles()
  }

  /**
   * Puts a batch whose write failed back among the pending entries: what was kept since stays the newer version of a
   * record or an explanation, and a bundle kept in both has the operations of both (keepOperation, as keepMined).
   */
  const requeue = (batch: Unwritten) => {
    for (const [transactionHash, newer] of pending.bundles) {
      const older = batch.bundles.get(transactionHash)
      if (!older) batch.bundles.set(transactionHash, newer)
      else
        for (const [i, hash] of newer.hashes.entries())
          keepOperation(older, hash, newer.operations[i] ?? null)
    }
    pending = {
      records: new Map([...batch.records, ...pending.records]),
      bundles: batch.bundles,
      explanations: new Map([...batch.explanations, ...pending.explanations]),
    }
  }

  /** Appends the entries' lines to the current file (a new one past fileBytes) and indexes them. */
  const writeEntries = async (batch: Unwritten) => {
    const lines: { line: string; index: (at: Location) => void }[] = []
    for (const [transactionHash, entry] of batch.bundles) {
      const line = `${BUNDLE_PREFIX}${transactionHash}","h":${JSON.stringify(entry.hashes)},"r":${JSON.stringify(entry.receipt)},"o":${JSON.stringify(entry.operations)}}\n`
      lines.push({
        line,
        index: (at) => {
          bundles.set(transactionHash, at)
          for (const hash of entry.hashes) operations.set(hash, at)
        },
      })
    }
    for (const [hash, record] of batch.records) {
      const line = `${RECORD_PREFIX}${hash}","s":${record.seq},"r":${JSON.stringify(record)}}\n`
      lines.push({ line, index: (at) => indexRecord(hash, record.seq, at) })
    }
    for (const [hash, explanation] of batch.explanations) {
      const line = `${EXPLANATION_PREFIX}${hash}","x":${JSON.stringify(explanation)}}\n`
      lines.push({ line, index: (at) => explanations.set(hash, at) })
    }
    if ((sizes.get(current) ?? 0) >= fileBytes) {
      const full = current
      sizes.set(++current, 0)
      await writeKeys(full, scanKeys(await readFile(join(dir, fileName(full)))))
    }
    let offset = sizes.get(current) ?? 0
    const chunk: string[] = []
    const indexes: (() => void)[] = []
    for (const { line, index } of lines) {
      const at = locate(current, offset)
      indexes.push(() => index(at))
      chunk.push(line)
      offset += Buffer.byteLength(line)
    }
    await appendFile(join(dir, fileName(current)), chunk.join(''), { mode: 0o600 })
    sizes.set(current, offset)
    for (const index of indexes) index()
  }

  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    writing = writing.then(write, write)
    return writing
  }
  const schedule = () => {
    if (timer || closed) return
    timer = setTimeout(() => void flush().catch(onError), flushIntervalMs)
    timer.unref?.()
  }

  return {
    keepMined({ userOpHash, receipt, userOperation }) {
      const hash = userOpHash.toLowerCase()
      const transactionHash = receipt.transactionHash.toLowerCase()
      if (!HASH.test(hash) || !HASH.test(transactionHash)) return
      let entry = pending.bundles.get(transactionHash)
      if (!entry) {
        entry = { receipt: compactReceipt(receipt), hashes: [], operations: [] }
        pending.bundles.set(transactionHash, entry)
      }
      keepOperation(entry, hash, userOperation)
      schedule()
    },
    keepRecords(list) {
      for (const record of list) {
        const hash = record.userOpHash.toLowerCase()
        if (HASH.test(hash)) pending.records.set(hash, record)
      }
      if (list.length > 0) schedule()
    },
    async findRecord(userOpHash) {
      const hash = userOpHash.toLowerCase()
      const unwritten = findUnwritten((entries) => entries.records.get(hash))
      if (unwritten) return unwritten
      await ready
      const at = records.get(hash)
      return at === undefined ? undefined : await readRecord(at)
    },
    async findReceipt(transactionHash) {
      const hash = transactionHash.toLowerCase()
      const unwritten = findUnwritten((entries) => entries.bundles.get(hash))
      if (unwritten) return expandReceipt(unwritten.receipt)
      await ready
      const at = bundles.get(hash)
      return at === undefined ? undefined : expandReceipt((await readEntry(at)).r as CompactReceipt)
    },
    async findOperation(userOpHash) {
      const hash = userOpHash.toLowerCase()
      const unwritten = findUnwritten((entries) => {
        for (const entry of entries.bundles.values()) {
          const i = entry.hashes.indexOf(hash)
          if (i !== -1 && entry.operations[i]) return entry.operations[i] ?? undefined
        }
        return undefined
      })
      if (unwritten) return unwritten
      await ready
      const at = operations.get(hash)
      if (at === undefined) return undefined
      const line = await readLine(at)
      return line.k === 'b' ? (line.o[line.h.indexOf(hash)] ?? undefined) : undefined
    },
    keepExplanation(userOpHash, explanation) {
      const hash = userOpHash.toLowerCase()
      if (!HASH.test(hash)) return
      pending.explanations.set(hash, explanation)
      schedule()
    },
    async findExplanation(userOpHash) {
      const hash = userOpHash.toLowerCase()
      const unwritten = findUnwritten((entries) => entries.explanations.get(hash))
      if (unwritten !== undefined) return unwritten
      await ready
      const at = explanations.get(hash)
      if (at === undefined) return undefined
      const line = await readLine(at)
      return line.k === 'x' ? line.x : undefined
    },
    async hasMined(userOpHash) {
      const hash = userOpHash.toLowerCase()
      const bundle = findUnwritten((entries) =>
        [...entries.bundles.values()].find((entry) => entry.hashes.includes(hash)),
      )
      if (bundle) return true
      await ready
      return operations.has(hash)
    },
    async listRecords({ limit, before }) {
      await ready
      // The records of the write under way, and those kept since (newer versions first).
      const unwritten = new Map([...inWrite.records, ...pending.records])
      // The position after the last kept seq below `before`.
      let high = seqs.length
      if (before !== undefined) {
        let low = 0
        while (low < high) {
          const mid = (low + high) >> 1
          if ((seqs[mid] as number) < before) low = mid + 1
          else high = mid
        }
      }
      const picked = hashes.slice(Math.max(0, high - limit), high).reverse()
      const read = await Promise.all(
        picked.map(async (hash) => {
          const at = records.get(hash)
          return unwritten.get(hash) ?? (at === undefined ? undefined : await readRecord(at))
        }),
      )
      const out = [
        ...read,
        ...[...unwritten.values()].filter((r) => !records.has(r.userOpHash.toLowerCase())),
      ].filter((r): r is UserOperationRecord => r !== undefined && (before === undefined || r.seq < before))
      return out.sort((a, b) => b.seq - a.seq).slice(0, limit)
    },
    stats: () => ({
      bytes: [...sizes.values()].reduce((sum, size) => sum + size, 0),
      files: sizes.size,
      records: records.size,
      bundles: bundles.size,
      operations: operations.size,
      explanations: explanations.size,
    }),
    flush,
    async mark() {
      await flush()
      return { file: current, size: sizes.get(current) ?? 0 }
    },
    async truncateTo(mark) {
      if (timer) clearTimeout(timer)
      timer = undefined
      pending = noEntries()
      await writing.catch(() => {})
      await ready.catch(() => {})
      const end = mark ?? { file: 0, size: 0 }
      for (const file of [...sizes.keys()]) {
        if (file < end.file) continue
        const handle = handles.get(file)
        handles.delete(file)
        await handle?.then((h) => h.close()).catch(() => {})
        await rm(join(dir, keysName(file)), { force: true })
        if (file === end.file) await truncate(join(dir, fileName(file)), end.size).catch(() => {})
        else await rm(join(dir, fileName(file)), { force: true })
      }
      // The indexes read again from the files as they are now (keys files of full files make it quick).
      for (const map of [records, bundles, operations, explanations, sizes]) map.clear()
      seqs.length = 0
      hashes.length = 0
      ready = load()
      await ready
    },
    async close() {
      closed = true
      await flush()
      for (const handle of handles.values()) await handle.then((h) => h.close()).catch(() => {})
      handles.clear()
    },
  }
}

/**
 * The keys of a file's lines, read from the start of each line without parsing it: `r <userOpHash> <seq> <offset>`
 * for a record, `b <transactionHash> <offset> <userOpHash>,…` for a bundle, `x <userOpHash> <offset>` for an
 * explanation; and the length of its whole lines.
 */
export function scanKeys(bytes: Buffer): { complete: number; lines: string[] } {
  const lines: string[] = []
  let start = 0
  for (;;) {
    const end = bytes.indexOf(NEWLINE, start)
    if (end === -1) return { complete: start, lines }
    const head = bytes.toString('latin1', start, Math.min(end, start + 120))
    if (head.startsWith(RECORD_PREFIX)) {
      const hash = head.slice(RECORD_PREFIX.length, RECORD_PREFIX.length + HASH_LENGTH)
      const seq = Number.parseInt(head.slice(RECORD_PREFIX.length + HASH_LENGTH + 6), 10)
      if (HASH.test(hash) && Number.isFinite(seq)) lines.push(`r ${hash} ${seq} ${start}`)
    } else if (head.startsWith(EXPLANATION_PREFIX)) {
      const hash = head.slice(EXPLANATION_PREFIX.length, EXPLANATION_PREFIX.length + HASH_LENGTH)
      if (HASH.test(hash)) lines.push(`x ${hash} ${start}`)
    } else if (head.startsWith(BUNDLE_PREFIX)) {
      const transactionHash = head.slice(BUNDLE_PREFIX.length, BUNDLE_PREFIX.length + HASH_LENGTH)
      const listStart = start + BUNDLE_PREFIX.length + HASH_LENGTH + '","h":['.length
      const listEnd = bytes.indexOf(']', listStart)
      if (HASH.test(transactionHash) && listEnd !== -1 && listEnd < end) {
        const hashes = bytes
          .toString('latin1', listStart, listEnd)
          .split(',')
          .map((quoted) => quoted.slice(1, -1))
          .filter((hash) => HASH.test(hash))
        lines.push(`b ${transactionHash} ${start} ${hashes.join(',')}`)
      }
    }
    start = end + 1
  }
}
