import { freezeDeep } from './freezeDeep'
import type { Store } from './openStore'
import type { StoreDocument } from './schema'

type ArrayKeys = {
  [K in keyof StoreDocument]: StoreDocument[K] extends unknown[] ? K : never
}[keyof StoreDocument]

/**
 * Appends a record to a bounded collection of the document (the oldest beyond `max` leave it): readable at once, and
 * written with the store's next write (`updateSoon`, at most DEFERRED_WRITE_MS later). Request paths (a decision per
 * paymaster call, a webhook call) never wait for a write, and every change of that time shares one: the store
 * writes its whole document, which costs milliseconds per write once the collections are full. Each collection once
 * had a timer of its own, so a busy service wrote the document two or three times where one write would do.
 * The record is frozen: it never changes once kept, and the store keeps its JSON between writes (documentSerializer.ts).
 */
export function appendSoon<K extends ArrayKeys>(
  store: Store,
  collection: K,
  record: StoreDocument[K][number],
  max: number,
): void {
  store.updateSoon((doc) => {
    const list = doc[collection] as StoreDocument[K][number][]
    list.push(freezeDeep(record))
    if (list.length > max) list.splice(0, list.length - max)
  })
}
