import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createDocumentSerializer } from '../../../src/main/service/store/documentSerializer'
import { createEmptyDocument, type StoreDocument } from '../../../src/main/service/store/schema'
import { addSponsorshipUsageSoon } from '../../../src/main/service/store/sponsorshipUsage.repo'
import { openUserOperationLog } from '../../../src/main/service/store/userOperations.repo'
import { makeRecordToAdd, makeUserOperationRecord } from './makeUserOperationRecord'
import { makeFreshStores, makeUsage } from './storeFixtures'

const freshStore = makeFreshStores('serializer')

/** A document with every kind of field: activity items, nested values, a field left undefined. */
function makeDocument(): StoreDocument {
  const doc = createEmptyDocument(new Date('2026-01-01T00:00:00.000Z'))
  doc.userOperations.push(makeUserOperationRecord(1), makeUserOperationRecord(2))
  doc.sponsorshipUsage.push(makeUsage('0x01'), makeUsage('0x02', { success: false }))
  Object.assign(doc.settings, { nothing: undefined })
  return doc
}

describe('the store document serializer', () => {
  it('gives the text JSON.stringify gives, write after write, with items added, dropped and changed in between', () => {
    const serializer = createDocumentSerializer()
    const doc = makeDocument()
    expect(serializer.serialize(doc)).toBe(JSON.stringify(doc))
    doc.userOperations.push(makeUserOperationRecord(3))
    doc.sponsorshipUsage.shift()
    const changed = doc.userOperations[0] as StoreDocument['userOperations'][number]
    changed.status = 'failed'
    serializer.changed(changed)
    expect(serializer.serialize(doc)).toBe(JSON.stringify(doc))
  })

  it("keeps an item's JSON until it is named changed: an item changed behind its back keeps its old text", () => {
    const serializer = createDocumentSerializer()
    const doc = makeDocument()
    serializer.serialize(doc)
    const record = doc.userOperations[1] as StoreDocument['userOperations'][number]
    record.status = 'dropped'
    expect(JSON.parse(serializer.serialize(doc)).userOperations[1].status).toBe('included')
    serializer.changed(record)
    expect(JSON.parse(serializer.serialize(doc)).userOperations[1].status).toBe('dropped')
  })

  it('writes a record the UserOperation log changed after it was written (the log names it to the store)', async () => {
    const store = await freshStore()
    const log = openUserOperationLog({ store, flushIntervalMs: 60_000 })
    const added = log.add(makeRecordToAdd(1))
    await log.flush()
    log.change(
      added.userOpHash,
      (r) => {
        r.status = 'included'
      },
      { status: 'included' },
    )
    log.keepAccountName(added.userOpHash, 'SimpleAccount v0.6')
    await log.flush()
    const [onDisk] = JSON.parse(await readFile(store.path, 'utf8')).userOperations
    expect(onDisk.status).toBe('included')
    expect(onDisk.account).toBe('SimpleAccount v0.6')
    expect(onDisk.timeline.at(-1).status).toBe('included')
    await log.close()
  })

  it('freezes the usage entries and decisions the store keeps: a change to one throws instead of being lost', async () => {
    const store = await freshStore()
    addSponsorshipUsageSoon(store, [makeUsage('0x0a')])
    const entry = store.data.sponsorshipUsage[0] as StoreDocument['sponsorshipUsage'][number]
    expect(() => {
      entry.success = false
    }).toThrow(TypeError)
    await store.flush()
    expect(JSON.parse(await readFile(store.path, 'utf8')).sponsorshipUsage[0].success).toBe(true)
  })
})
