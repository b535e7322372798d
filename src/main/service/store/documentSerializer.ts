import { ACTIVITY_COLLECTIONS, type StoreDocument } from './schema'

/** The collections whose items' JSON is kept: long lists whose items rarely change once written. */
const KEPT_COLLECTIONS: ReadonlySet<string> = new Set(ACTIVITY_COLLECTIONS)

export type DocumentSerializer = {
  /** The document as JSON.stringify gives it (compact, the same text), each activity item's JSON kept for the next. */
  serialize: (doc: StoreDocument) => string
  /** An item of an activity collection changed in place: its JSON is made again at the next write. */
  changed: (item: object) => void
}

/**
 * The store document's serializer. The store writes its whole document (at most every DEFERRED_WRITE_MS while the
 * service works), and most of it is the activity collections (2,000 operation records, 500 decisions, 5,000
 * usage entries: 4.4 MB when full), of which only the newest items are new or changed: each item's JSON is kept by
 * the item itself (a WeakMap: an item that leaves the document takes its JSON with it) and only new ones and the ones
 * `changed` names are serialized again. Decisions, webhook calls and usage entries never change once kept
 * (appendSoon.ts freezes them); operation records change only through the UserOperation log, which names them.
 */
export function createDocumentSerializer(): DocumentSerializer {
  const kept = new WeakMap<object, string>()
  const serializeItem = (item: unknown): string => {
    if (typeof item !== 'object' || item === null) return JSON.stringify(item) ?? 'null'
    let json = kept.get(item)
    if (json === undefined) {
      json = JSON.stringify(item) ?? 'null'
      kept.set(item, json)
    }
    return json
  }
  return {
    serialize(doc) {
      const fields: string[] = []
      for (const [key, value] of Object.entries(doc)) {
        const json =
          KEPT_COLLECTIONS.has(key) && Array.isArray(value)
            ? `[${value.map(serializeItem).join(',')}]`
            : JSON.stringify(value)
        // As JSON.stringify leaves out a field whose value has no JSON (undefined, a function).
        if (json !== undefined) fields.push(`${JSON.stringify(key)}:${json}`)
      }
      return `{${fields.join(',')}}`
    },
    changed(item) {
      kept.delete(item)
    },
  }
}
