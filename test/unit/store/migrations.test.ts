import { describe, expect, it } from 'vitest'
import { migrateDocument } from '../../../src/main/service/store/migrations'
import {
  CURRENT_SCHEMA_VERSION,
  createEmptyDocument,
  StoreDocumentSchema,
} from '../../../src/main/service/store/schema'

/** A sponsorship decision as schemaVersion 1 wrote it before v0.7 came: no entryPointVersion. */
const decision = {
  id: 's1',
  dappId: 'd1',
  time: '2026-11-20T10:00:00.000Z',
  method: 'pm_sponsorUserOperation',
  mode: 'SPONSORED',
  sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
  nonce: '0',
  userOpHash: null,
  sponsored: true,
  steps: [],
  reason: null,
}

describe('store schema and migrations', () => {
  it('a fresh document is valid against the schema', () => {
    expect(StoreDocumentSchema.safeParse(createEmptyDocument()).success).toBe(true)
  })
  it('refuses a document written by a newer Opstation', () => {
    expect(() => migrateDocument({ schemaVersion: CURRENT_SCHEMA_VERSION + 1 })).toThrow(
      /newer than this Opstation understands/,
    )
  })
  it('refuses a document without a schemaVersion', () => {
    expect(() => migrateDocument({})).toThrow(/schemaVersion is missing or invalid/)
  })
  it('migrates a schemaVersion 1 document: its sponsorship decisions without an EntryPoint version were v0.6', () => {
    const old = {
      ...createEmptyDocument(),
      schemaVersion: 1,
      sponsorships: [decision, { ...decision, id: 's2', entryPointVersion: '0.7' }],
    }
    const migrated = StoreDocumentSchema.parse(migrateDocument(old as unknown as Record<string, unknown>))
    expect(migrated.schemaVersion).toBe(CURRENT_SCHEMA_VERSION)
    expect(migrated.sponsorships.map((s) => [s.id, s.entryPointVersion])).toEqual([
      ['s1', '0.6'],
      ['s2', '0.7'],
    ])
  })

  it('refuses a sponsorship decision without an EntryPoint version in a current document (no default)', () => {
    const doc = createEmptyDocument()
    const parsed = StoreDocumentSchema.safeParse({
      ...doc,
      sponsorships: [{ ...decision, chainId: 31337 }],
    })
    expect(parsed.error?.issues[0]?.path).toEqual(['sponsorships', 0, 'entryPointVersion'])
  })

  it('leaves a current document as it is', () => {
    const doc = createEmptyDocument()
    expect(migrateDocument(doc as unknown as Record<string, unknown>)).toEqual(doc)
  })

  it("migrates a schemaVersion 2 document: records take their dApp's chain, those without a dApp the service's", () => {
    const dapp = (id: string, chainId: number) => ({
      id,
      accountId: 'a1',
      name: id,
      chainId,
    })
    const old = {
      ...createEmptyDocument(),
      schemaVersion: 2,
      dapps: [dapp('d1', 8453)],
      sponsorships: [{ ...decision, entryPointVersion: '0.6' }],
      sponsorshipUsage: [{ userOpHash: '0x01', dappId: 'd1' }],
      webhookCalls: [{ id: 'w1', dappId: 'd1' }],
      userOperations: [
        { userOpHash: '0x02', dappId: 'd1' },
        { userOpHash: '0x03', dappId: null },
      ],
    }
    const raw = old as unknown as Record<string, unknown>
    const chainsOf = (doc: Record<string, unknown>) =>
      ['sponsorships', 'sponsorshipUsage', 'webhookCalls', 'userOperations'].map((name) =>
        (doc[name] as { chainId: number }[]).map((record) => record.chainId),
      )
    // A one-chain service on 8453 (a fork of Base, say): every dApp is on it, so is an operation sent without one.
    expect(chainsOf(migrateDocument(raw))).toEqual([[8453], [8453], [8453], [8453, 8453]])
    // The chain the service ran, when known, wins for records without a dApp.
    expect(chainsOf(migrateDocument(raw, { legacyChainId: 10 }))).toEqual([
      [8453],
      [8453],
      [8453],
      [8453, 10],
    ])
    // Without dApps and without the service's chain: the default embedded chain's.
    const bare = { ...raw, dapps: [], sponsorships: [], sponsorshipUsage: [], webhookCalls: [] }
    expect(chainsOf(migrateDocument(bare))[3]).toEqual([31337, 31337])
    expect(migrateDocument(raw).schemaVersion).toBe(3)
  })

  it('a record of a current document without a chain is refused (no default)', () => {
    const parsed = StoreDocumentSchema.safeParse({
      ...createEmptyDocument(),
      sponsorships: [{ ...decision, entryPointVersion: '0.6' }],
    })
    expect(parsed.error?.issues[0]?.path).toEqual(['sponsorships', 0, 'chainId'])
  })
})
