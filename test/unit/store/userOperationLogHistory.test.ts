import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openStore } from '../../../src/main/service/store/openStore'
import { openUserOperationHistory } from '../../../src/main/service/store/userOperationHistory'
import { openUserOperationLog } from '../../../src/main/service/store/userOperations.repo'
import { makeTempDir } from '../../helpers/makeTempDir'
import { hash, makeRecordToAdd } from './makeUserOperationRecord'

/** The log over a store in `dataDir` keeping `maxRecords` in the document, with its history beside it. */
async function openLog(dataDir: string, maxRecords = 3) {
  const store = await openStore({ dataDir })
  const history = openUserOperationHistory({ dir: path.join(dataDir, 'history') })
  return { store, log: openUserOperationLog({ store, history, maxRecords, flushIntervalMs: 60_000 }) }
}

/** Adds record i as the bundler does: with its seq given by the log, created pending then mined. */
function addMined(log: ReturnType<typeof openUserOperationLog>, i: number) {
  const record = makeRecordToAdd(i)
  log.add({
    ...record,
    status: 'pending',
    userOperation: { sender: record.sender, nonce: `0x${i}` } as never,
  })
  log.keepMined(record.userOpHash, {
    transactionHash: record.transactionHash as string,
    logs: [],
    logsBloom: `0x${'0'.repeat(512)}`,
    status: '0x1',
  })
  log.change(record.userOpHash, (r) => Object.assign(r, { ...record, userOperation: null, seq: r.seq }))
}

describe('UserOperation records beyond the store document', () => {
  it('records that leave the document are found and listed from the history, newest first, across a restart', async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const first = await openLog(dataDir)
    for (let i = 0; i < 10; i++) addMined(first.log, i)
    await first.log.close()
    const doc = JSON.parse(await readFile(first.store.path, 'utf8'))
    expect(doc.userOperations.map((r: { seq: number }) => r.seq)).toEqual([7, 8, 9])

    const { log } = await openLog(dataDir)
    expect(log.get(hash('a', 2))).toBeUndefined()
    expect((await log.find(hash('a', 2)))?.status).toBe('included')
    const page = async (before?: number) => (await log.list({ limit: 4, before })).map((r) => r.seq)
    expect(await page()).toEqual([9, 8, 7, 6])
    expect(await page(6)).toEqual([5, 4, 3, 2])
    expect(await page(2)).toEqual([1, 0])
    await log.close()
  })

  it("keeps a mined operation as it was sent and its bundle's receipt, though its record lets the operation go", async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const { log } = await openLog(dataDir)
    addMined(log, 1)
    expect(log.get(hash('a', 1))?.userOperation).toBeNull()
    expect(await log.findOperation(hash('a', 1))).toEqual({ sender: `0x${'b'.repeat(40)}`, nonce: '0x1' })
    expect((await log.findReceipt(hash('e', 1)))?.status).toBe('0x1')
    await log.close()
    const again = await openLog(dataDir)
    expect(await again.log.findOperation(hash('a', 1))).toEqual({
      sender: `0x${'b'.repeat(40)}`,
      nonce: '0x1',
    })
    await again.log.close()
  })

  it('an unfinished record stays in the document however old, and the feed still lists every record once', async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const { log } = await openLog(dataDir)
    const stuck = makeRecordToAdd(100)
    log.add({ ...stuck, status: 'submitted' })
    for (let i = 0; i < 6; i++) addMined(log, i)
    await log.flush()
    expect(log.get(stuck.userOpHash)?.status).toBe('submitted')
    const all = (await log.list({ limit: 50 })).map((r) => r.userOpHash)
    expect(new Set(all).size).toBe(7)
    expect(all[all.length - 1]).toBe(stuck.userOpHash)
    await log.close()
  })
  it('lists every record while a write moves the oldest into the history, as before and after it', async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const { log } = await openLog(dataDir)
    for (let i = 0; i < 6; i++) addMined(log, i)
    // Looked up at every turn of the event loop until the write is done: the new records left the log's inserts when
    // it began, and joined the document only after the history had taken the oldest ones.
    let written = false
    const flushing = log.flush().then(() => {
      written = true
    })
    const listed: number[][] = []
    while (!written) {
      listed.push((await log.list({ limit: 10 })).map((r) => r.seq))
      await new Promise((resolve) => setImmediate(resolve))
    }
    await flushing
    expect(listed.length).toBeGreaterThan(1)
    for (const seqs of listed) expect(seqs).toEqual([5, 4, 3, 2, 1, 0])
    expect((await log.list({ limit: 10 })).map((r) => r.seq)).toEqual([5, 4, 3, 2, 1, 0])
    await log.close()
  })
})

describe('the log writes one batch at a time', () => {
  it('a write due while a slow one runs waits for it: no two writes move the same oldest records into the history', async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const store = await openStore({ dataDir })
    const history = openUserOperationHistory({ dir: path.join(dataDir, 'history') })
    // A history whose flush (the write's first step once records leave the document) takes 150 ms, as on a busy disk.
    const kept = new Map<string, number>()
    let flushing = 0
    let overlapping = 0
    const slowHistory: typeof history = {
      ...history,
      keepRecords(list) {
        for (const r of list) kept.set(r.userOpHash, (kept.get(r.userOpHash) ?? 0) + 1)
        history.keepRecords(list)
      },
      async flush() {
        if (++flushing > 1) overlapping++
        await new Promise((resolve) => setTimeout(resolve, 150))
        await history.flush()
        flushing--
      },
    }
    const log = openUserOperationLog({ store, history: slowHistory, maxRecords: 3, flushIntervalMs: 20 })
    for (let i = 0; i < 6; i++) addMined(log, i)
    // The timer's write starts, and stays in the history's flush while more records come and their timer fires.
    await new Promise((resolve) => setTimeout(resolve, 60))
    for (let i = 6; i < 9; i++) addMined(log, i)
    await new Promise((resolve) => setTimeout(resolve, 400))
    await log.close()
    expect(overlapping).toBe(0)
    expect([...kept.values()].every((times) => times === 1)).toBe(true)
    const doc = JSON.parse(await readFile(store.path, 'utf8'))
    expect(doc.userOperations.map((r: { seq: number }) => r.seq)).toEqual([6, 7, 8])
    const again = await openLog(dataDir)
    expect((await again.log.list({ limit: 20 })).map((r) => r.seq)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0])
    await again.log.close()
  })
})

describe("a record's chain time", () => {
  it("stamps the chain's now on a record when it is added and each time it changes, beside its wall time", async () => {
    const dataDir = await makeTempDir('opstation-log-')
    const store = await openStore({ dataDir })
    let chainNow = 2_000_000_000
    const log = openUserOperationLog({ store, flushIntervalMs: 60_000, chainNow: () => chainNow })
    const record = makeRecordToAdd(1)
    log.add({ ...record, status: 'pending' })
    expect(log.get(record.userOpHash)?.chainTime).toBe(2_000_000_000)
    // A day of chain time later (evm_increaseTime): the next change carries it.
    chainNow += 86_400
    log.change(record.userOpHash, (r) => {
      r.status = 'included'
    })
    expect(log.get(record.userOpHash)).toMatchObject({ status: 'included', chainTime: 2_000_086_400 })
    await log.close()
  })
})
