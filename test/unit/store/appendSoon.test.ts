import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appendSoon } from '../../../src/main/service/store/appendSoon'
import { AtomicJsonFile } from '../../../src/main/service/store/atomicJsonFile'
import { DEFERRED_WRITE_MS } from '../../../src/main/service/store/openStore'
import {
  addSponsorship,
  findSponsorship,
  listSponsorships,
} from '../../../src/main/service/store/sponsorships.repo'
import { addSponsorshipUsageSoon } from '../../../src/main/service/store/sponsorshipUsage.repo'
import type { Sponsorship } from '../../../src/shared/api/sponsorships'
import { makeFreshStores, makeUsage } from './storeFixtures'

const freshStore = makeFreshStores('append')

const decision = (id: string, dappId = 'd1'): Sponsorship => ({
  id,
  dappId,
  chainId: 31337,
  time: new Date().toISOString(),
  method: 'pm_sponsorUserOperation',
  mode: 'SPONSORED',
  entryPointVersion: '0.6',
  sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
  nonce: '0',
  userOpHash: null,
  sponsored: true,
  steps: [],
  reason: null,
  paymasterAndData: null,
  gas: null,
  validUntil: null,
  blockWindow: null,
  feeToken: null,
  webhookCallId: null,
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const onDisk = async (path: string) => JSON.parse(await readFile(path, 'utf8'))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('records appended to bounded collections', () => {
  it("are readable at once and on disk with the store's next write", async () => {
    const store = await freshStore()
    addSponsorship(store, decision('a'))
    addSponsorship(store, decision('b'))
    expect(findSponsorship(store, 'a')?.id).toBe('a')
    expect(listSponsorships(store, { dappIds: ['d1'] }).map((s) => s.id)).toEqual(['b', 'a'])
    expect((await onDisk(store.path)).sponsorships).toEqual([])
    await store.flush()
    expect((await onDisk(store.path)).sponsorships.map((s: Sponsorship) => s.id)).toEqual(['a', 'b'])
  })

  it('keep only the newest `max`', async () => {
    const store = await freshStore()
    for (const id of ['1', '2', '3', '4']) appendSoon(store, 'sponsorships', decision(id), 3)
    expect(store.data.sponsorships.map((s) => s.id)).toEqual(['2', '3', '4'])
    await store.flush()
    expect((await onDisk(store.path)).sponsorships.map((s: Sponsorship) => s.id)).toEqual(['2', '3', '4'])
  })

  it('are written on their own within DEFERRED_WRITE_MS', async () => {
    const store = await freshStore()
    addSponsorship(store, decision('x'))
    await sleep(DEFERRED_WRITE_MS + 250)
    expect((await onDisk(store.path)).sponsorships.map((s: Sponsorship) => s.id)).toEqual(['x'])
  })

  it("share the store's writes with the other deferred changes: one write at most every DEFERRED_WRITE_MS", async () => {
    // A busy paymaster: a decision, then the operation's usage once it is mined, every 30 ms. Each collection had a
    // timer of its own, and the two wrote the whole document one after the other (about twice as many writes).
    const store = await freshStore()
    const write = vi.spyOn(AtomicJsonFile.prototype, 'write')
    const started = performance.now()
    for (let i = 0; i < 20; i++) {
      addSponsorship(store, decision(`d${i}`))
      await sleep(10)
      addSponsorshipUsageSoon(store, [makeUsage(`0x${i}`)])
      await sleep(20)
    }
    const elapsed = performance.now() - started
    await sleep(DEFERRED_WRITE_MS + 100)
    expect(write.mock.calls.length).toBeGreaterThan(0)
    expect(write.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / DEFERRED_WRITE_MS) + 1)
    const doc = await onDisk(store.path)
    expect(doc.sponsorships).toHaveLength(20)
    expect(doc.sponsorshipUsage).toHaveLength(20)
  })
})
