import { readFile } from 'node:fs/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AtomicJsonFile } from '../../../src/main/service/store/atomicJsonFile'
import { DEFERRED_WRITE_MS } from '../../../src/main/service/store/openStore'
import { openUserOperationLog } from '../../../src/main/service/store/userOperations.repo'
import { makeRecordToAdd } from './makeUserOperationRecord'
import { makeFreshStores } from './storeFixtures'

const freshStore = makeFreshStores('log-writes')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the UserOperation log', () => {
  it("puts its records in the document as often as it gathers them, and leaves their writing to the store's next deferred write", async () => {
    const store = await freshStore()
    const log = openUserOperationLog({ store, flushIntervalMs: 20 })
    const write = vi.spyOn(AtomicJsonFile.prototype, 'write')
    const started = performance.now()
    for (let i = 0; i < 30; i++) {
      log.add(makeRecordToAdd(i))
      await sleep(20)
    }
    const elapsed = performance.now() - started
    // Gathered into the document every 20 ms; written whole at most once per DEFERRED_WRITE_MS (it was every 20 ms).
    expect(store.data.userOperations.length).toBeGreaterThanOrEqual(29)
    expect(write.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsed / DEFERRED_WRITE_MS) + 1)
    await log.flush()
    const onDisk = JSON.parse(await readFile(store.path, 'utf8'))
    expect(onDisk.userOperations).toHaveLength(30)
    await log.close()
  })

  it('is on disk once flush or close resolves', async () => {
    const store = await freshStore()
    const log = openUserOperationLog({ store, flushIntervalMs: 60_000 })
    log.add(makeRecordToAdd(1))
    await log.flush()
    expect(JSON.parse(await readFile(store.path, 'utf8')).userOperations).toHaveLength(1)
    log.add(makeRecordToAdd(2))
    await log.close()
    expect(JSON.parse(await readFile(store.path, 'utf8')).userOperations).toHaveLength(2)
  })
})
