import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { DEFERRED_WRITE_MS, type Store } from '../../../src/main/service/store/openStore'
import type { SponsorshipUsage } from '../../../src/main/service/store/schema'
import {
  addSponsorshipUsageSoon,
  listSponsorshipUsage,
} from '../../../src/main/service/store/sponsorshipUsage.repo'
import { makeFreshStores, makeUsage } from './storeFixtures'

const freshStore = makeFreshStores('soon')

const onDisk = async (store: Store) => JSON.parse(await readFile(store.path, 'utf8')).sponsorshipUsage

describe('store.updateSoon', () => {
  it('applies the change at once and writes it with one write within DEFERRED_WRITE_MS', async () => {
    const store = await freshStore()
    expect(addSponsorshipUsageSoon(store, [makeUsage('0xa')])).toBe(1)
    expect(addSponsorshipUsageSoon(store, [makeUsage('0xa'), makeUsage('0xb')])).toBe(1)
    expect(listSponsorshipUsage(store, 'd1').map((u) => u.userOpHash)).toEqual(['0xa', '0xb'])
    expect(await onDisk(store)).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, DEFERRED_WRITE_MS + 200))
    await store.flush()
    expect((await onDisk(store)).map((u: SponsorshipUsage) => u.userOpHash)).toEqual(['0xa', '0xb'])
  })

  it('is on disk once flush or any later update resolves', async () => {
    const store = await freshStore()
    addSponsorshipUsageSoon(store, [makeUsage('0xa')])
    await store.flush()
    expect(await onDisk(store)).toHaveLength(1)
    addSponsorshipUsageSoon(store, [makeUsage('0xb')])
    await store.update((doc) => {
      doc.tokenPrices = []
    })
    expect(await onDisk(store)).toHaveLength(2)
  })
})
