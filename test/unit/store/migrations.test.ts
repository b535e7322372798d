import { describe, expect, it } from 'vitest'
import { migrateDocument } from '../../../src/main/service/store/migrations'
import {
  CURRENT_SCHEMA_VERSION,
  createEmptyDocument,
  StoreDocumentSchema,
} from '../../../src/main/service/store/schema'

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
  it('leaves a current document as it is', () => {
    const doc = createEmptyDocument()
    expect(migrateDocument(doc as unknown as Record<string, unknown>)).toEqual(doc)
  })
})
