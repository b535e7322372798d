import { isUnfinished, type UserOperationRecord } from '../../../shared/api/userOperations'
import type { NodeReceipt } from './compactReceipt'
import type { Store } from './openStore'
import type { UserOperationHistory } from './userOperationHistory'

export type UserOperationLog = {
  /** A record of the store document (the recent ones, and every unfinished one). */
  get: (userOpHash: string) => UserOperationRecord | undefined
  /** A record of the store document, else of the history (an older one). */
  find: (userOpHash: string) => Promise<UserOperationRecord | undefined>
  /** Newest first, the history's after the document's; `before` is a `seq` cursor (exclusive). */
  list: (options: { limit: number; before?: number }) => Promise<UserOperationRecord[]>
  /**
   * An operation was mined: the history keeps the bundle's receipt and the operation as sent (from its record,
   * before the record lets it go, unless given), for when the chain no longer holds them.
   */
  keepMined: (userOpHash: string, receipt: NodeReceipt, userOperation?: Record<string, unknown>) => void
  /** Whether the history keeps a mined operation's bundle (false without a history). */
  hasMined: (userOpHash: string) => Promise<boolean>
  /** A bundle transaction's receipt as it was mined, from the history. */
  findReceipt: (transactionHash: string) => Promise<NodeReceipt | undefined>
  /** A mined operation as it was sent (wire form), from the history. */
  findOperation: (userOpHash: string) => Promise<Record<string, unknown> | undefined>
  /** Keeps a mined operation's explanation in the history (with its receipt and record: it survives a restart). */
  keepExplanation: (userOpHash: string, explanation: unknown) => void
  /** The explanation the history keeps for an operation, if any (none without a history). */
  findExplanation: (userOpHash: string) => Promise<unknown | undefined>
  /** Records of `chainId` that were pending or submitted when the service stopped. */
  unfinished: (chainId: number) => UserOperationRecord[]
  /** Highest block number of a mined record of `chainId`; null when none is mined. */
  lastMinedBlock: (chainId: number) => number | null
  /** Adds a record (seq, createdAt and updatedAt are filled in). */
  add: (
    record: Omit<UserOperationRecord, 'seq' | 'createdAt' | 'updatedAt'>,
    at?: Date,
  ) => UserOperationRecord
  /** Changes a record; `status` (when given) is also appended to its timeline. */
  change: (
    userOpHash: string,
    change: (record: UserOperationRecord) => void,
    timeline?: { status: string; note?: string },
    at?: Date,
  ) => UserOperationRecord | undefined
  /**
   * Keeps the account type named for a record (a reading of the chain, not a change of the operation: its updatedAt
   * and timeline stay), written with the log's next write.
   */
  keepAccountName: (userOpHash: string, account: string | null) => void
  /** Writes pending changes now; resolves once they are on disk. */
  flush: () => Promise<void>
  /**
   * Holds the log's writes (a stack snapshot, revert or reset): resolves once a write under way has ended; changes
   * meanwhile wait for `release`.
   */
  hold: () => Promise<() => void>
  /**
   * Reads the store document's records again, dropping the changes not written yet (after the document was put back
   * to a snapshot, or emptied by a reset).
   */
  reload: () => void
  close: () => Promise<void>
}

export type OpenUserOperationLogParameters = {
  store: Store
  /**
   * Oldest finished records leave the store document beyond this many (it is rewritten on every change), for the
   * history when there is one.
   */
  maxRecords?: number
  /** Where mined operations' receipts and records that leave the document are kept (userOperationHistory.ts). */
  history?: UserOperationHistory
  /**
   * Changes are gathered and put in the document at most this often, then written with the store's next deferred
   * write (at most DEFERRED_WRITE_MS later; each write writes the whole store document). A crash loses at most
   * this much of the log: operations mined meanwhile are recorded again from the chain when the bundler starts
   * (recoverMinedOperations).
   */
  flushIntervalMs?: number
  /** The chain's now (unix seconds), stamped on a record with its wall time when it changes (`chainTime`). */
  chainNow?: () => number
  /**
   * The one chain whose records this log holds, in a service of several chains (each chain's bundler has its own log
   * over the one document); undefined in a service of one chain: every record of the document.
   */
  chainId?: number
  /** Where record numbers (`seq`) come from: shared by the logs of several chains, so that they never repeat. */
  sequence?: RecordSequence
  onError?: (err: unknown) => void
}

/** The next `seq` of a record, shared by every log over one store document. */
export type RecordSequence = {
  take: () => number
  /** Makes the next number at least `next`. */
  atLeast: (next: number) => void
}

/** A sequence that starts after the document's highest `seq`. */
export function createRecordSequence(store: Store): RecordSequence {
  let next = store.data.userOperations.reduce((max, r) => Math.max(max, r.seq + 1), 0)
  return {
    take: () => next++,
    atLeast(value) {
      next = Math.max(next, value)
    },
  }
}

/**
 * The `userOperations` collection with an in-memory index. Writes are batched (every `flushIntervalMs`),
 * because the store rewrites its whole file on each update and the bundler changes records on its hot path;
 * reads always see the latest state.
 */
export function openUserOperationLog({
  store,
  maxRecords = 2000,
  history,
  flushIntervalMs = 1000,
  onError = () => {},
  chainNow,
  chainId,
  sequence = createRecordSequence(store),
}: OpenUserOperationLogParameters): UserOperationLog {
  const isOwn = (record: UserOperationRecord) => chainId === undefined || record.chainId === chainId
  const ownRecords = () =>
    chainId === undefined ? store.data.userOperations : store.data.userOperations.filter(isOwn)
  const index = new Map<string, UserOperationRecord>()
  for (const record of ownRecords()) index.set(record.userOpHash, record)
  let inserts: UserOperationRecord[] = []
  /**
   * The records a write took from `inserts`, listed until they are in the document: the write first moves the oldest
   * records into the history, and the new ones were listed nowhere meanwhile.
   */
  const insertsInWrite = new Set<UserOperationRecord>()
  let dirty = false
  let timer: NodeJS.Timeout | undefined
  let closed = false
  let held = 0
  let writing: Promise<void> = Promise.resolve()

  const write = async () => {
    timer = undefined
    if (!dirty) return
    dirty = false
    const added = inserts
    inserts = []
    for (const r of added) insertsInWrite.add(r)
    try {
      await moveIntoDocument(added)
    } finally {
      // A write that failed before the document took them leaves them out of it, as before.
      for (const r of added) insertsInWrite.delete(r)
    }
  }
  /**
   * Runs a write once the one under way has ended. Two at once (a timer's while a slow one waited on the history)
   * each moved records in and out of the document from what it was when they began: records that had left it for the
   * history came back, and the document outgrew maxRecords.
   */
  const runWrite = (): Promise<void> => {
    const next = writing.catch(() => {}).then(write)
    writing = next
    return next
  }
  /** Adds the new records to the document, the oldest finished ones beyond maxRecords leaving it for the history. */
  const moveIntoDocument = async (added: UserOperationRecord[]) => {
    // The oldest finished records beyond maxRecords leave the document: into the history first, so that a record is
    // always in one of them on disk.
    const leaving = new Set<UserOperationRecord>()
    const own = ownRecords()
    let excess = own.length + added.length - maxRecords
    for (const r of [...own, ...added]) {
      if (excess <= 0) break
      if (isUnfinished(r.status)) continue
      leaving.add(r)
      excess--
    }
    if (history && leaving.size > 0) {
      history.keepRecords([...leaving])
      await history.flush()
    }
    // Into the document at once, written with the store's next write (updateSoon: the one that carries the paymaster's
    // decisions and usage too, instead of a write of the whole document of its own); flush and close wait for it.
    store.updateSoon((doc) => {
      doc.userOperations.push(...added)
      // Listed from the document from now on (the store changes it at once, before writing it).
      for (const r of added) insertsInWrite.delete(r)
      if (leaving.size > 0) {
        doc.userOperations = doc.userOperations.filter((r) => !leaving.has(r))
        for (const r of leaving) if (index.get(r.userOpHash) === r) index.delete(r.userOpHash)
      }
    })
  }
  const schedule = () => {
    dirty = true
    if (!timer && !closed && held === 0) {
      timer = setTimeout(() => {
        runWrite().catch(onError)
      }, flushIntervalMs)
      timer.unref?.()
    }
  }
  /** A record changed in place: its JSON is made again at the store's next write (documentSerializer.ts). */
  const scheduleChanged = (record: UserOperationRecord) => {
    store.changed(record)
    schedule()
  }

  return {
    get: (userOpHash) => index.get(userOpHash.toLowerCase()),
    find: async (userOpHash) =>
      index.get(userOpHash.toLowerCase()) ?? (await history?.findRecord(userOpHash)),
    async list({ limit, before }) {
      const all = [...ownRecords(), ...insertsInWrite, ...inserts]
      const out: UserOperationRecord[] = []
      // Records leave the document oldest (finished) first: the history's are all below its oldest finished one.
      let boundary = Number.POSITIVE_INFINITY
      let newer = 0
      for (let i = all.length - 1; i >= 0; i--) {
        const record = all[i] as UserOperationRecord
        if (!isUnfinished(record.status)) boundary = Math.min(boundary, record.seq)
        if (before === undefined || record.seq < before) out.push(record)
      }
      for (const record of out) if (record.seq >= boundary) newer++
      if (!history || newer >= limit) return out.slice(0, limit)
      const older = await history.listRecords({ limit, before: Math.min(before ?? boundary, boundary) })
      return [...out, ...older.filter((r) => index.get(r.userOpHash) === undefined)]
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit)
    },
    keepMined(userOpHash, receipt, userOperation) {
      const record = index.get(userOpHash.toLowerCase())
      history?.keepMined({
        userOpHash,
        receipt,
        userOperation: userOperation ?? record?.userOperation ?? null,
      })
    },
    hasMined: async (userOpHash) => (await history?.hasMined(userOpHash)) ?? false,
    findReceipt: async (transactionHash) => history?.findReceipt(transactionHash),
    findOperation: async (userOpHash) => history?.findOperation(userOpHash),
    keepExplanation: (userOpHash, explanation) => history?.keepExplanation(userOpHash, explanation),
    findExplanation: async (userOpHash) => history?.findExplanation(userOpHash),
    unfinished: (chainId) =>
      [...index.values()].filter((r) => r.chainId === chainId && isUnfinished(r.status)),
    lastMinedBlock(chainId) {
      let last: number | null = null
      for (const record of index.values()) {
        if (record.chainId !== chainId) continue
        if (record.blockNumber !== null && (last === null || record.blockNumber > last))
          last = record.blockNumber
      }
      return last
    },
    add(partial, at = new Date()) {
      const existing = index.get(partial.userOpHash)
      const now = at.toISOString()
      if (existing) {
        // Re-sent after a rejection (or a restart): one record per hash.
        Object.assign(existing, partial, {
          updatedAt: now,
          ...(chainNow ? { chainTime: chainNow() } : {}),
          timeline: [...existing.timeline, ...partial.timeline],
        })
        scheduleChanged(existing)
        return existing
      }
      const record: UserOperationRecord = {
        ...partial,
        seq: sequence.take(),
        createdAt: now,
        updatedAt: now,
        ...(chainNow ? { chainTime: chainNow() } : {}),
      }
      index.set(record.userOpHash, record)
      inserts.push(record)
      schedule()
      return record
    },
    change(userOpHash, change, timeline, at = new Date()) {
      const record = index.get(userOpHash.toLowerCase())
      if (!record) return undefined
      change(record)
      record.updatedAt = at.toISOString()
      if (chainNow) record.chainTime = chainNow()
      if (timeline) record.timeline.push({ ...timeline, at: record.updatedAt })
      scheduleChanged(record)
      return record
    },
    keepAccountName(userOpHash, account) {
      const record = index.get(userOpHash.toLowerCase())
      if (!record) return
      record.account = account
      scheduleChanged(record)
    },
    async flush() {
      if (timer) clearTimeout(timer)
      timer = undefined
      dirty = true
      await runWrite()
      await store.flush()
    },
    async hold() {
      held++
      if (timer) clearTimeout(timer)
      timer = undefined
      await writing.catch(() => {})
      return () => {
        held--
        if (held === 0 && dirty) schedule()
      }
    },
    reload() {
      inserts = []
      dirty = false
      index.clear()
      for (const record of ownRecords()) index.set(record.userOpHash, record)
      sequence.atLeast(store.data.userOperations.reduce((max, r) => Math.max(max, r.seq + 1), 0))
    },
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = undefined
      if (inserts.length > 0) dirty = true
      await runWrite()
      await store.flush()
      await history?.close()
    },
  }
}
