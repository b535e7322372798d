import { CURRENT_SCHEMA_VERSION } from './schema'

type RawDocument = Record<string, unknown> & { schemaVersion?: unknown }

/**
 * Forward migrations, keyed by the version they migrate *from*. Each takes the raw document of that
 * version and returns the document of the next one. Add one entry per schema change.
 */
const migrations: Record<number, (doc: RawDocument) => RawDocument> = {
  /** 1 -> 2: a sponsorship decision names its EntryPoint version; those recorded before v0.7 came were v0.6. */
  1: (doc) => ({
    ...doc,
    schemaVersion: 2,
    sponsorships: Array.isArray(doc.sponsorships)
      ? doc.sponsorships.map((decision) =>
          decision && typeof decision === 'object' && !('entryPointVersion' in decision)
            ? { ...decision, entryPointVersion: '0.6' }
            : decision,
        )
      : doc.sponsorships,
  }),
}

export class UnsupportedSchemaVersionError extends Error {
  override name = 'UnsupportedSchemaVersionError'
}

/** Brings a raw document up to CURRENT_SCHEMA_VERSION. Throws on an unknown or newer version. */
export function migrateDocument(raw: RawDocument): RawDocument {
  let doc = raw
  const version = doc.schemaVersion
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new UnsupportedSchemaVersionError(
      `schemaVersion is missing or invalid (${JSON.stringify(version)})`,
    )
  }
  if (version > CURRENT_SCHEMA_VERSION) {
    throw new UnsupportedSchemaVersionError(
      `schemaVersion ${version} is newer than this Opstation understands (${CURRENT_SCHEMA_VERSION}); upgrade Opstation`,
    )
  }
  let current: number = version
  while (current < CURRENT_SCHEMA_VERSION) {
    const migrate = migrations[current]
    if (!migrate) throw new UnsupportedSchemaVersionError(`no migration from schemaVersion ${current}`)
    doc = migrate(doc)
    current = Number(doc.schemaVersion)
  }
  return doc
}
