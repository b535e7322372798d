import { rename } from 'node:fs/promises'
import path from 'node:path'
import { Low } from 'lowdb'
import { StartupError } from '../errors'
import { type Logger, silentLogger } from '../log'
import { AtomicJsonFile } from './atomicJsonFile'
import { migrateDocument, UnsupportedSchemaVersionError } from './migrations'
import { createEmptyDocument, type StoreDocument, StoreDocumentSchema } from './schema'

export const STORE_FILE_NAME = 'opstation.json'

export type StoreRecovery = {
  /** Where the unreadable file was kept. */
  corruptCopy: string
  reason: string
}

export type Store = {
  readonly path: string
  /** The live document. Read freely; change it only inside `update`. */
  readonly data: StoreDocument
  /** Set when the file on disk was unreadable and was kept aside at start. */
  readonly recovery: StoreRecovery | undefined
  /** Applies `change` to the document and resolves once the result is durably on disk. */
  update: <R>(change: (doc: StoreDocument) => R) => Promise<R>
  /** Resolves once every change so far is on disk. */
  flush: () => Promise<void>
}

export type OpenStoreParameters = { dataDir: string; log?: Logger; now?: () => Date }

/**
 * Opens (or creates) the store document in `dataDir`. A file that does not parse or does not match
 * the schema is never overwritten: it is renamed aside, the error is reported and an empty store is
 * started. A file from a newer Opstation is left untouched and start-up fails.
 */
export async function openStore({
  dataDir,
  log = silentLogger,
  now = () => new Date(),
}: OpenStoreParameters): Promise<Store> {
  const filename = path.join(dataDir, STORE_FILE_NAME)
  const adapter = new AtomicJsonFile<StoreDocument>(filename)
  let recovery: StoreRecovery | undefined
  let document: StoreDocument

  const text = await adapter.readText()
  if (text === null) {
    document = createEmptyDocument(now())
  } else {
    const loaded = parseDocument(text)
    if (loaded.ok) {
      document = loaded.document
    } else if (loaded.fatal) {
      throw new StartupError(`Cannot open the store ${filename}: ${loaded.reason}`)
    } else {
      const corruptCopy = `${filename}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`
      await rename(filename, corruptCopy)
      recovery = { corruptCopy, reason: loaded.reason }
      log.error(
        { file: filename, corruptCopy, reason: loaded.reason },
        'store file was unreadable; kept aside, starting empty',
      )
      document = createEmptyDocument(now())
    }
  }

  const db = new Low<StoreDocument>(adapter, document)
  db.data = document
  await db.write()

  let lastWrite: Promise<void> = Promise.resolve()
  return {
    path: filename,
    get data() {
      return db.data
    },
    recovery,
    async update(change) {
      const result = change(db.data)
      lastWrite = db.write()
      await lastWrite
      return result
    },
    async flush() {
      await lastWrite.catch(() => {})
      await db.write()
    },
  }
}

type ParseResult = { ok: true; document: StoreDocument } | { ok: false; fatal: boolean; reason: string }

function parseDocument(text: string): ParseResult {
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
    migrated = migrateDocument(raw as Record<string, unknown>)
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
