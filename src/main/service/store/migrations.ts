import { defaults } from '../chain/constants'
import { CURRENT_SCHEMA_VERSION } from './schema'

type RawDocument = Record<string, unknown> & { schemaVersion?: unknown }

/** What a migration may need to know besides the document. */
export type MigrationContext = {
  /**
   * The chain the service ran when the document was written, when known (a store written before records carried
   * their chain was written by a one-chain service): see migration 2 -> 3.
   */
  legacyChainId?: number
}

/**
 * Forward migrations, keyed by the version they migrate *from*. Each takes the raw document of that
 * version and returns the document of the next one. Add one entry per schema change.
 */
const migrations: Record<number, (doc: RawDocument, context: MigrationContext) => RawDocument> = {
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
  /**
   * 2 -> 3: records that belong to a chain carry its id (several chains share one store). A sponsorship decision, a
   * usage entry and a webhook call take their dApp's chain (a dApp has always named its chain); a UserOperation its
   * dApp's, or, sent without a dApp key, the chain the service ran: `legacyChainId`, else the one chain every dApp is
   * on, else the default embedded chain's.
   */
  2: (doc, context) => {
    const dapps = Array.isArray(doc.dapps) ? (doc.dapps as Record<string, unknown>[]) : []
    const chainOfDapp = new Map<unknown, number>()
    for (const dapp of dapps) if (typeof dapp?.chainId === 'number') chainOfDapp.set(dapp.id, dapp.chainId)
    const dappChains = [...new Set(chainOfDapp.values())]
    const serviceChain =
      context.legacyChainId ?? (dappChains.length === 1 ? dappChains[0] : undefined) ?? defaults.chainId
    const stamp = (records: unknown) =>
      Array.isArray(records)
        ? records.map((record) =>
            record && typeof record === 'object' && !('chainId' in record)
              ? {
                  ...record,
                  chainId: chainOfDapp.get((record as { dappId?: unknown }).dappId) ?? serviceChain,
                }
              : record,
          )
        : records
    return {
      ...doc,
      schemaVersion: 3,
      sponsorships: stamp(doc.sponsorships),
      sponsorshipUsage: stamp(doc.sponsorshipUsage),
      webhookCalls: stamp(doc.webhookCalls),
      userOperations: stamp(doc.userOperations),
    }
  },
}

export class UnsupportedSchemaVersionError extends Error {
  override name = 'UnsupportedSchemaVersionError'
}

/** Brings a raw document up to CURRENT_SCHEMA_VERSION. Throws on an unknown or newer version. */
export function migrateDocument(raw: RawDocument, context: MigrationContext = {}): RawDocument {
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
    doc = migrate(doc, context)
    current = Number(doc.schemaVersion)
  }
  return doc
}
