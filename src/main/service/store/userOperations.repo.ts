import type { Store } from './openStore'
import { isUnfinished, type UserOperationRecord } from './userOperationRecord'

export type UserOperationLog = {
  get: (userOpHash: string) => UserOperationRecord | undefined
  /** Newest first; `before` is a `seq` cursor (exclusive). */
  list: (options: { limit: number; before?: number }) => UserOperationRecord[]
  /** Records that were pending or submitted when the service stopped. */
  unfinished: () => UserOperationRecord[]
  /** Highest block number of a mined record; null when none is mined. */
  lastMinedBlock: () => number | null
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
  /** Writes pending changes now; resolves once they are on disk. */
  flush: () => Promise<void>
  close: () => Promise<void>
}

export type OpenUserOperationLogParameters = {
  store: Store
  /** Oldest finished records are pruned beyond this many (the store file is rewritten on every change). */
  maxRecords?: number
  /**
   * Changes are gathered and written at most this often (each write serialises the whole store document). A
   * crash loses at most this much of the log: operations mined meanwhile are recorded again from the chain when
   * the bundler starts (recoverMinedOperations).
   */
  flushIntervalMs?: number
  onError?: (err: unknown) => void
}

/**
 * The `userOperations` collection with an in-memory index. Writes are batched (every `flushIntervalMs`),
 * because the store rewrites its whole file on each update and the bundler changes records on its hot path;
 * reads always see the latest state.
 */
export function openUserOperationLog({
  store,
  maxRecords = 2000,
  flushIntervalMs = 1000,
  onError = () => {},
}: OpenUserOperationLogParameters): UserOperationLog {
  const index = new Map<string, UserOperationRecord>()
  for (const record of store.data.userOperations) index.set(record.userOpHash, record)
  let nextSeq = store.data.userOperations.reduce((max, r) => Math.max(max, r.seq + 1), 0)
  let inserts: UserOperationRecord[] = []
  let dirty = false
  let timer: NodeJS.Timeout | undefined
  let closed = false

  const write = async () => {
    timer = undefined
    if (!dirty) return
    dirty = false
    const added = inserts
    inserts = []
    await store.update((doc) => {
      doc.userOperations.push(...added)
      const excess = doc.userOperations.length - maxRecords
      if (excess > 0) {
        let toRemove = excess
        doc.userOperations = doc.userOperations.filter((r) => {
          if (toRemove > 0 && !isUnfinished(r.status)) {
            toRemove--
            index.delete(r.userOpHash)
            return false
          }
          return true
        })
      }
    })
  }
  const schedule = () => {
    dirty = true
    if (!timer && !closed) {
      timer = setTimeout(() => void write().catch(onError), flushIntervalMs)
      timer.unref?.()
    }
  }

  return {
    get: (userOpHash) => index.get(userOpHash.toLowerCase()),
    list({ limit, before }) {
      const all = [...store.data.userOperations, ...inserts]
      const out: UserOperationRecord[] = []
      for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
        const record = all[i] as UserOperationRecord
        if (before === undefined || record.seq < before) out.push(record)
      }
      return out
    },
    unfinished: () => [...index.values()].filter((r) => isUnfinished(r.status)),
    lastMinedBlock() {
      let last: number | null = null
      for (const record of index.values()) {
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
          timeline: [...existing.timeline, ...partial.timeline],
        })
        schedule()
        return existing
      }
      const record: UserOperationRecord = { ...partial, seq: nextSeq++, createdAt: now, updatedAt: now }
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
      if (timeline) record.timeline.push({ ...timeline, at: record.updatedAt })
      schedule()
      return record
    },
    async flush() {
      if (timer) clearTimeout(timer)
      timer = undefined
      dirty = true
      await write()
    },
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = undefined
      if (dirty || inserts.length > 0) {
        dirty = true
        await write()
      }
    },
  }
}
