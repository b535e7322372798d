import type { Store } from './openStore'
import type { StoreDocument } from './schema'

type ArrayKeys = {
  [K in keyof StoreDocument]: StoreDocument[K] extends unknown[] ? K : never
}[keyof StoreDocument]

export type BatchedAppender<T> = {
  /** Queues a record; it is readable through `pending()` at once and written with the next batch. */
  add: (item: T) => void
  /** Records not yet in the document, oldest first. */
  pending: () => readonly T[]
  /** Writes the queued records now; resolves when they are on disk. */
  flush: () => Promise<void>
  /** Drops the queued records, once a write under way has applied its own (a revert of the stack). */
  discard: () => Promise<void>
}

const appenders = new WeakMap<Store, Map<string, BatchedAppender<unknown>>>()

/** How long records wait before one write carries them all (ms). */
const FLUSH_DELAY_MS = 250

/**
 * Appends to a bounded collection in batches. The store writes the whole document on every update, which
 * costs milliseconds once collections are large; request paths (a decision per paymaster call) queue their
 * records here and one write carries every record of the last FLUSH_DELAY_MS. One appender per store and
 * collection.
 */
export function getBatchedAppender<K extends ArrayKeys>(
  store: Store,
  collection: K,
  max: number,
): BatchedAppender<StoreDocument[K][number]> {
  type T = StoreDocument[K][number]
  let byCollection = appenders.get(store)
  if (!byCollection) {
    byCollection = new Map()
    appenders.set(store, byCollection)
  }
  const existing = byCollection.get(collection)
  if (existing) return existing as BatchedAppender<T>

  let queue: T[] = []
  /** Records of `queue` already handed to a write that has not applied them yet. */
  let taken = 0
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()
  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const batch = queue.slice(taken)
    if (batch.length === 0) return writing
    taken += batch.length
    writing = writing
      .catch(() => {})
      .then(() =>
        store.update((doc) => {
          const list = doc[collection] as T[]
          list.push(...batch)
          if (list.length > max) list.splice(0, list.length - max)
          // Only now are they in the document: stop reporting them as pending.
          queue = queue.slice(batch.length)
          taken -= batch.length
        }),
      )
    return writing
  }
  const appender: BatchedAppender<T> = {
    add(item) {
      queue.push(item)
      if (!timer) {
        timer = setTimeout(() => void flush().catch(() => {}), FLUSH_DELAY_MS)
        timer.unref()
      }
    },
    pending: () => queue,
    flush,
    async discard() {
      if (timer) clearTimeout(timer)
      timer = undefined
      await writing.catch(() => {})
      queue = []
      taken = 0
    },
  }
  byCollection.set(collection, appender as BatchedAppender<unknown>)
  return appender
}

/** Writes every queued record of every collection of this store. */
export async function flushBatchedAppenders(store: Store): Promise<void> {
  const byCollection = appenders.get(store)
  if (!byCollection) return
  await Promise.all([...byCollection.values()].map((a) => a.flush()))
}

/** Drops every queued record of every collection of this store (a revert of the stack). */
export async function discardBatchedAppends(store: Store): Promise<void> {
  const byCollection = appenders.get(store)
  if (!byCollection) return
  await Promise.all([...byCollection.values()].map((a) => a.discard()))
}
