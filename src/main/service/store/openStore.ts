import { rename } from 'node:fs/promises'
import path from 'node:path'
import { Low } from 'lowdb'
import type { StoreSetAside } from '../../../shared/serviceInfo'
import { StartupError } from '../errors'
import { type Logger, silentLogger } from '../log/logger'
import { AtomicJsonFile } from './atomicJsonFile'
import { createDocumentSerializer } from './documentSerializer'
import { type MigrationContext, migrateDocument, UnsupportedSchemaVersionError } from './migrations'
import { createEmptyDocument, type StoreDocument, StoreDocumentSchema } from './schema'

export const STORE_FILE_NAME = 'opstation.json'

export type Store = {
  readonly path: string
  /** The live document. Read freely; change it only inside `update`. */
  readonly data: StoreDocument
  /** Set when the file on disk was unreadable and was kept aside at start (`resetStore`). */
  readonly recovery: StoreSetAside | undefined
  /** Applies `change` to the document and resolves once the result is durably on disk. */
  update: <R>(change: (doc: StoreDocument) => R) => Promise<R>
  /**
   * Applies `change` to the document at once (every reader sees it) and writes it with the next write, at most
   * DEFERRED_WRITE_MS later: one write carries every such change of that time. For records the service can read
   * again from the chain if it is killed before they are written (what the chain's receipts say).
   */
  updateSoon: <R>(change: (doc: StoreDocument) => R) => R
  /** Resolves once every change so far is on disk. */
  flush: () => Promise<void>
  /**
   * An item of an activity collection (`userOperations`, ...) was changed in place: the next write serializes it
   * again (the store keeps each such item's JSON between writes: documentSerializer.ts).
   */
  changed: (item: object) => void
}

/** How long a change made with `updateSoon` may wait for its write (ms). */
export const DEFERRED_WRITE_MS = 250

export type OpenStoreParameters = {
  dataDir: string
  log?: Logger
  now?: () => Date
  /** Start with an empty store when the file is unreadable, keeping the file aside. */
  resetStore?: boolean
  /** The chain a store written before records carried their chain was written for (migrations.ts, 2 -> 3). */
  legacyChainId?: number
}

/**
 * Opens (or creates) the store document in `dataDir`. A file that does not parse or does not match the schema is
 * never overwritten: start-up fails, naming the file and the flag that starts fresh; with `resetStore` the file is
 * renamed aside (`opstation.json.corrupt-<time>`) and an empty store is started. A file from a newer Opstation is
 * left untouched and start-up fails either way.
 */
export async function openStore({
  dataDir,
  log = silentLogger,
  now = () => new Date(),
  resetStore = false,
  legacyChainId,
}: OpenStoreParameters): Promise<Store> {
  const filename = path.join(dataDir, STORE_FILE_NAME)
  const serializer = createDocumentSerializer()
  const adapter = new AtomicJsonFile<StoreDocument>(filename, { serialize: serializer.serialize })
  let recovery: StoreSetAside | undefined
  let document: StoreDocument

  const text = await adapter.readText()
  if (text === null) {
    document = createEmptyDocument(now())
  } else {
    const loaded = parseDocument(text, { legacyChainId })
    if (loaded.ok) {
      document = loaded.document
    } else if (loaded.fatal) {
      throw new StartupError(`Cannot open the store ${filename}: ${loaded.reason}`)
    } else if (!resetStore) {
      throw new StartupError(
        `The store ${filename} is unreadable (${oneLine(loaded.reason)}); it was left as it is. Repair it, or start with --reset-store (OPSTATION_RESET_STORE=1) to keep it aside and start with an empty store.`,
      )
    } else {
      const at = now()
      const corruptCopy = `${filename}.corrupt-${at.toISOString().replace(/[:.]/g, '-')}`
      await rename(filename, corruptCopy)
      recovery = { corruptCopy, reason: loaded.reason, at: at.toISOString() }
      log.error(
        { file: filename, corruptCopy, reason: loaded.reason },
        'store file was unreadable; kept aside, starting empty (--reset-store)',
      )
      document = createEmptyDocument(at)
    }
  }

  const db = new Low<StoreDocument>(adapter, document)
  db.data = document
  await db.write()

  let lastWrite: Promise<void> = Promise.resolve()
  let deferred: NodeJS.Timeout | undefined
  /** Writes the whole document (with whatever `updateSoon` changed meanwhile). */
  const write = () => {
    clearTimeout(deferred)
    deferred = undefined
    lastWrite = db.write()
    return lastWrite
  }
  return {
    path: filename,
    get data() {
      return db.data
    },
    recovery,
    async update(change) {
      const result = change(db.data)
      await write()
      return result
    },
    updateSoon(change) {
      const result = change(db.data)
      if (!deferred) {
        deferred = setTimeout(
          () => void write().catch((err) => log.warn({ err }, 'writing the store failed')),
          DEFERRED_WRITE_MS,
        )
        deferred.unref()
      }
      return result
    },
    async flush() {
      await lastWrite.catch(() => {})
      await write()
    },
    changed: serializer.changed,
  }
}

type ParseResult = { ok: true; document: StoreDocument } | { ok: false; fatal: boolean; reason: string }

function parseDocument(text: string, context: MigrationContext): ParseResult {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    return { ok: false, fatal: false, reason: `invalid JSON (${(err as Error).message})` }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, fatal: false, reason: 'the document is not a JSON object' }
  }
  let migrated: Record<string, unknown>
  try {
    migrated = migrateDocument(raw as Record<string, unknown>, context)
  } catch (err) {
    const newer = err instanceof UnsupportedSchemaVersionError && /newer/.test(err.message)
    return { ok: false, fatal: newer, reason: (err as Error).message }
  }
  const parsed = StoreDocumentSchema.safeParse(migrated)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return {
      ok: false,
      fatal: false,
      reason: `schema mismatch at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
    }
  }
  return { ok: true, document: parsed.data }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}
