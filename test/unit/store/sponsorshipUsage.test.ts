import { describe, expect, it } from 'vitest'
import type { Store } from '../../../src/main/service/store/openStore'
import {
  addSponsorshipUsage,
  addSponsorshipUsageSoon,
  MAX_SPONSORSHIP_USAGE,
  readCountedUsage,
} from '../../../src/main/service/store/sponsorshipUsage.repo'
import { makeFreshStores, makeUsage } from './storeFixtures'

const freshStore = makeFreshStores('usage')

const usage = (n: number) =>
  makeUsage(`0x${n.toString(16).padStart(64, '0')}`, { blockNumber: n, minedAt: 1_700_000_000 + n })
const hashes = (store: Store) => store.data.sponsorshipUsage.map((u) => u.blockNumber)

describe('sponsorship usage', () => {
  it('counts an operation once, whatever the case of its hash and however often its bundle is seen', async () => {
    const store = await freshStore()
    expect(addSponsorshipUsageSoon(store, [usage(1), usage(2)])).toBe(2)
    const upper = { ...usage(2), userOpHash: usage(2).userOpHash.toUpperCase().replace('0X', '0x') }
    expect(addSponsorshipUsageSoon(store, [upper, usage(3)])).toBe(1)
    expect(await addSponsorshipUsage(store, [usage(1), usage(3)])).toBe(0)
    expect(hashes(store)).toEqual([1, 2, 3])
    expect(readCountedUsage(store).has(usage(3).userOpHash)).toBe(true)
  })

  it('drops the oldest beyond the limit, and counts a dropped operation again when it is seen again', async () => {
    const store = await freshStore()
    const all = Array.from({ length: MAX_SPONSORSHIP_USAGE + 2 }, (_, i) => usage(i + 1))
    expect(addSponsorshipUsageSoon(store, all)).toBe(all.length)
    expect(store.data.sponsorshipUsage).toHaveLength(MAX_SPONSORSHIP_USAGE)
    expect(hashes(store)[0]).toBe(3)
    expect(readCountedUsage(store).has(usage(1).userOpHash)).toBe(false)
    expect(addSponsorshipUsageSoon(store, [usage(1), usage(3)])).toBe(1)
    expect(hashes(store).at(-1)).toBe(1)
    expect(hashes(store)[0]).toBe(4)
  })

  it('sees a list changed other than by adding (pushed to, emptied, or put back by a snapshot)', async () => {
    const store = await freshStore()
    addSponsorshipUsageSoon(store, [usage(1)])
    store.data.sponsorshipUsage.push(usage(2))
    expect(addSponsorshipUsageSoon(store, [usage(2)])).toBe(0)
    store.data.sponsorshipUsage.splice(0)
    expect(addSponsorshipUsageSoon(store, [usage(1), usage(2)])).toBe(2)
    await store.update((doc) => {
      doc.sponsorshipUsage = [usage(5)]
    })
    expect(readCountedUsage(store).has(usage(1).userOpHash)).toBe(false)
    expect(addSponsorshipUsageSoon(store, [usage(1), usage(5)])).toBe(1)
    expect(hashes(store)).toEqual([5, 1])
  })
})
