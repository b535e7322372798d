import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { NodeReceipt } from '../../../src/main/service/store/compactReceipt'
import { openUserOperationHistory } from '../../../src/main/service/store/userOperationHistory'
import { makeTempDir } from '../../helpers/makeTempDir'
import { hash, makeUserOperationRecord as makeRecord } from './makeUserOperationRecord'

/** A bundle transaction's receipt with one UserOperationEvent per operation. */
function makeReceipt(tx: string, operations: string[]): NodeReceipt {
  return {
    transactionHash: tx,
    blockHash: hash('f', 1),
    blockNumber: '0x1',
    status: '0x1',
    logs: operations.map((op, i) => ({
      address: '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789',
      topics: ['0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f', op],
      data: '0x01',
      blockHash: hash('f', 1),
      blockNumber: '0x1',
      transactionHash: tx,
      transactionIndex: '0x0',
      logIndex: `0x${i.toString(16)}`,
      removed: false,
    })),
    logsBloom: '0x',
  }
}

describe('the history of mined UserOperations', () => {
  it("keeps a mined bundle's receipt and its operations as sent, and finds them after it is opened again", async () => {
    const dir = await makeTempDir('opstation-history-')
    const tx = hash('c', 1)
    const ops = [hash('a', 1), hash('a', 2)]
    const receipt = makeReceipt(tx, ops)
    const history = openUserOperationHistory({ dir })
    history.keepMined({
      userOpHash: ops[0] as string,
      receipt,
      userOperation: { sender: '0x01', nonce: '0x0' },
    })
    history.keepMined({
      userOpHash: ops[1] as string,
      receipt,
      userOperation: { sender: '0x02', nonce: '0x1' },
    })
    // Readable before it is written.
    expect((await history.findReceipt(tx))?.transactionHash).toBe(tx)
    await history.close()

    const again = openUserOperationHistory({ dir })
    const found = await again.findReceipt(tx)
    expect(found?.logs).toEqual(receipt.logs)
    expect(await again.findOperation(ops[1] as string)).toEqual({ sender: '0x02', nonce: '0x1' })
    expect(await again.findOperation(hash('a', 9))).toBeUndefined()
    expect(again.stats()).toMatchObject({ bundles: 1, operations: 2 })
    await again.close()
  })

  it('lists kept records newest first from a seq cursor, across its files and after it is opened again', async () => {
    const dir = await makeTempDir('opstation-history-')
    const history = openUserOperationHistory({ dir, fileBytes: 3000 })
    for (let i = 0; i < 20; i += 4) {
      history.keepRecords([0, 1, 2, 3].map((k) => makeRecord(i + k)))
      await history.flush()
    }
    await history.close()
    const files = await readdir(dir)
    expect(files.filter((f) => f.endsWith('.ndjson')).length).toBeGreaterThan(2)
    // Each full file has its keys beside it, which the next open reads instead of the file.
    expect(files.filter((f) => f.endsWith('.keys')).length).toBe(
      files.filter((f) => f.endsWith('.ndjson')).length - 1,
    )

    const again = openUserOperationHistory({ dir, fileBytes: 3000 })
    const seqs = async (before?: number) => (await again.listRecords({ limit: 6, before })).map((r) => r.seq)
    expect(await seqs()).toEqual([19, 18, 17, 16, 15, 14])
    expect(await seqs(14)).toEqual([13, 12, 11, 10, 9, 8])
    expect(await seqs(2)).toEqual([1, 0])
    expect((await again.findRecord(hash('a', 7)))?.nonce).toBe('7')
    await again.close()
  })

  it('stays within its bound: past maxBytes the oldest file goes, with its entries', async () => {
    const dir = await makeTempDir('opstation-history-')
    const history = openUserOperationHistory({ dir, fileBytes: 2000, maxBytes: 6000 })
    for (let i = 0; i < 40; i++) {
      history.keepRecords([makeRecord(i)])
      await history.flush()
    }
    const { bytes, records } = history.stats()
    expect(bytes).toBeLessThanOrEqual(6000 + 2000)
    expect(records).toBeLessThan(40)
    expect(await history.findRecord(hash('a', 0))).toBeUndefined()
    expect((await history.findRecord(hash('a', 39)))?.seq).toBe(39)
    const files = (await readdir(dir)).filter((f) => f.endsWith('.ndjson'))
    const sizes = await Promise.all(files.map((f) => readFile(path.join(dir, f))))
    expect(sizes.reduce((sum, b) => sum + b.length, 0)).toBe(bytes)
    await history.close()
  })

  it('drops a line cut short by a kill and goes on writing after the last whole one', async () => {
    const dir = await makeTempDir('opstation-history-')
    const history = openUserOperationHistory({ dir })
    history.keepRecords([makeRecord(1)])
    await history.close()
    const [file] = await readdir(dir)
    const full = path.join(dir, file as string)
    await writeFile(full, `${await readFile(full, 'utf8')}{"k":"r","h":"0xab`)

    const again = openUserOperationHistory({ dir })
    again.keepRecords([makeRecord(2)])
    await again.close()
    const third = openUserOperationHistory({ dir })
    expect((await third.listRecords({ limit: 10 })).map((r) => r.seq)).toEqual([2, 1])
    await third.close()
  })

  it('goes back to a mark (a stack revert): what was kept after it is cut off the files, also for the next start', async () => {
    const dir = await makeTempDir('opstation-history-')
    // Small files: the entries after the mark fill more than one.
    const history = openUserOperationHistory({ dir, fileBytes: 2_000 })
    history.keepRecords([makeRecord(1), makeRecord(2)])
    const before = hash('a', 1)
    history.keepMined({
      userOpHash: before,
      receipt: makeReceipt(hash('c', 1), [before]),
      userOperation: null,
    })
    const mark = await history.mark()
    for (let i = 3; i < 12; i++) {
      history.keepRecords([makeRecord(i)])
      await history.flush()
    }
    const after = hash('a', 2)
    history.keepMined({ userOpHash: after, receipt: makeReceipt(hash('c', 2), [after]), userOperation: null })
    history.keepExplanation(after, { status: 'mined' })
    // Kept but not written yet at the revert: dropped too.
    history.keepRecords([makeRecord(12)])
    expect(history.stats().files).toBeGreaterThan(1)

    await history.truncateTo(mark)
    expect((await history.listRecords({ limit: 20 })).map((r) => r.seq)).toEqual([2, 1])
    expect(await history.hasMined(before)).toBe(true)
    expect(await history.hasMined(after)).toBe(false)
    expect(await history.findExplanation(after)).toBeUndefined()
    expect(await history.findRecord(makeRecord(5).userOpHash)).toBeUndefined()
    // Kept on: new entries after the cut.
    history.keepRecords([makeRecord(13)])
    await history.close()

    const reopened = openUserOperationHistory({ dir })
    expect((await reopened.listRecords({ limit: 20 })).map((r) => r.seq)).toEqual([13, 2, 1])
    expect(await reopened.hasMined(after)).toBe(false)
    await reopened.truncateTo()
    expect(await reopened.listRecords({ limit: 20 })).toEqual([])
    expect(reopened.stats().bytes).toBe(0)
    await reopened.close()
  })

  it('keeps an explanation by its userOpHash, found after it is opened again, from a full file by its keys too', async () => {
    const dir = await makeTempDir('opstation-history-')
    // A tiny file size: each write begins a new file, so the first file is read back from its keys file.
    const history = openUserOperationHistory({ dir, fileBytes: 10 })
    const explanation = { status: 'reverted', reason: 'execution reverted: InsufficientBalance(5, 7)' }
    history.keepExplanation(hash('a', 1), explanation)
    expect(await history.findExplanation(hash('a', 1))).toEqual(explanation)
    await history.flush()
    history.keepRecords([makeRecord(1)])
    await history.flush()
    history.keepExplanation(hash('a', 2), { status: 'mined' })
    await history.close()
    expect((await readdir(dir)).filter((name) => name.endsWith('.keys'))).not.toHaveLength(0)

    const again = openUserOperationHistory({ dir })
    expect(await again.findExplanation(hash('a', 1))).toEqual(explanation)
    expect(await again.findExplanation(hash('A', 2))).toEqual({ status: 'mined' })
    expect(await again.findExplanation(hash('a', 3))).toBeUndefined()
    expect(again.stats()).toMatchObject({ explanations: 2, records: 1 })
    await again.close()
  })
  it('keeps what a failed write could not put on disk, and writes it with the next one', async () => {
    const dir = await makeTempDir('opstation-history-')
    const tx = hash('c', 3)
    const op = hash('a', 3)
    const history = openUserOperationHistory({ dir, flushIntervalMs: 60_000 })
    history.keepMined({ userOpHash: op, receipt: makeReceipt(tx, [op]), userOperation: { sender: '0x03' } })
    history.keepRecords([makeRecord(3)])
    // Once the history has read its folder (listing waits for that; made before, the folder below was read as a
    // history file, EISDIR, on a busy machine), the file the write appends to is a folder: the append fails (as on a
    // full disk).
    expect((await history.listRecords({ limit: 5 })).map((record) => record.seq)).toEqual([3])
    const file = path.join(dir, 'user-operations-00000001.ndjson')
    await mkdir(file)
    await expect(history.flush()).rejects.toThrow()
    expect(await history.findOperation(op)).toEqual({ sender: '0x03' })
    expect((await history.findRecord(hash('a', 3)))?.seq).toBe(3)
    await rm(file, { recursive: true })
    await history.close()
    const again = openUserOperationHistory({ dir })
    expect(await again.findOperation(op)).toEqual({ sender: '0x03' })
    expect((await again.findReceipt(tx))?.transactionHash).toBe(tx)
    expect((await again.findRecord(hash('a', 3)))?.seq).toBe(3)
    await again.close()
  })

  it('finds every entry while its write is under way, as before and after it (a mined operation is never unknown)', async () => {
    const dir = await makeTempDir('opstation-history-')
    const history = openUserOperationHistory({ dir })
    const tx = hash('c', 1)
    const op = hash('a', 1)
    const record = makeRecord(2)
    history.keepMined({ userOpHash: op, receipt: makeReceipt(tx, [op]), userOperation: { sender: '0x01' } })
    history.keepRecords([record])
    history.keepExplanation(op, { status: 'mined' })
    const lookUp = async () => ({
      operation: await history.findOperation(op),
      receipt: (await history.findReceipt(tx))?.transactionHash,
      mined: await history.hasMined(op),
      record: (await history.findRecord(record.userOpHash))?.seq,
      listed: (await history.listRecords({ limit: 5 })).map((r) => r.seq),
      explanation: await history.findExplanation(op),
    })
    const found = {
      operation: { sender: '0x01' },
      receipt: tx,
      mined: true,
      record: 2,
      listed: [2],
      explanation: { status: 'mined' },
    }
    // Looked up at every turn of the event loop from the flush until the lines are on disk and indexed: the
    // entries left the pending ones when the write began, and were indexed only once the file was appended to.
    let written = false
    const flushing = history.flush().then(() => {
      written = true
    })
    const seen: unknown[] = []
    while (!written) {
      seen.push(await lookUp())
      await new Promise((resolve) => setImmediate(resolve))
    }
    await flushing
    expect(seen.length).toBeGreaterThan(1)
    for (const lookedUp of seen) expect(lookedUp).toEqual(found)
    expect(await lookUp()).toEqual(found)
    await history.close()
  })
})
