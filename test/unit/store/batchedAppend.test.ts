import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { flushBatchedAppenders, getBatchedAppender } from '../../../src/main/service/store/batchedAppend'
import {
  addSponsorship,
  findSponsorship,
  listSponsorships,
} from '../../../src/main/service/store/sponsorships.repo'
import type { Sponsorship } from '../../../src/shared/api/sponsorships'
import { makeFreshStores } from './makeFreshStores'

const freshStore = makeFreshStores('batch')

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

describe('batched appends to bounded collections', () => {
  it('makes a queued record readable at once and puts it on disk with the next batch', async () => {
    const store = await freshStore()
    addSponsorship(store, decision('a'))
    addSponsorship(store, decision('b'))
    expect(findSponsorship(store, 'a')?.id).toBe('a')
    expect(listSponsorships(store, { dappIds: ['d1'] }).map((s) => s.id)).toEqual(['b', 'a'])
    expect(store.data.sponsorships).toHaveLength(0)
    await flushBatchedAppenders(store)
    expect(store.data.sponsorships.map((s) => s.id)).toEqual(['a', 'b'])
    const onDisk = JSON.parse(await readFile(store.path, 'utf8'))
    expect(onDisk.sponsorships.map((s: Sponsorship) => s.id)).toEqual(['a', 'b'])
    expect(listSponsorships(store, { dappIds: ['d1'] }).map((s) => s.id)).toEqual(['b', 'a'])
  })

  it('never shows a record twice while overlapping batches are written, and keeps only the newest `max`', async () => {
    const store = await freshStore()
    const appender = getBatchedAppender(store, 'sponsorships', 3)
    appender.add(decision('1'))
    const first = appender.flush()
    appender.add(decision('2'))
    appender.add(decision('3'))
    const second = appender.flush()
    appender.add(decision('4'))
    expect([...store.data.sponsorships, ...appender.pending()].map((s) => s.id)).toEqual(['1', '2', '3', '4'])
    await Promise.all([first, second, appender.flush()])
    expect(store.data.sponsorships.map((s) => s.id)).toEqual(['2', '3', '4'])
    expect(appender.pending()).toHaveLength(0)
  })

  it('writes a batch on its own after a short delay', async () => {
    const store = await freshStore()
    addSponsorship(store, decision('x'))
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(store.data.sponsorships.map((s) => s.id)).toEqual(['x'])
  })
})
