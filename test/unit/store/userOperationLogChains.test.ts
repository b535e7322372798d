import { describe, expect, it } from 'vitest'
import { openStore } from '../../../src/main/service/store/openStore'
import {
  createRecordSequence,
  openUserOperationLog,
} from '../../../src/main/service/store/userOperations.repo'
import { makeTempDir } from '../../helpers/makeTempDir'
import { makeUserOperationRecord } from './makeUserOperationRecord'

describe('the UserOperation logs of several chains over one store document', () => {
  it("each holds its own chain's records, their numbers never repeating, and writes them to the one document", async () => {
    const store = await openStore({ dataDir: await makeTempDir('opstation-logs-') })
    const sequence = createRecordSequence(store)
    const logs = [1, 2].map((chainId) =>
      openUserOperationLog({ store, chainId, sequence, flushIntervalMs: 60_000 }),
    ) as [ReturnType<typeof openUserOperationLog>, ReturnType<typeof openUserOperationLog>]
    for (let i = 0; i < 4; i++) {
      const chainId = (i % 2) + 1
      const { seq: _s, createdAt: _c, updatedAt: _u, ...record } = makeUserOperationRecord(i)
      logs[i % 2 === 0 ? 0 : 1].add({ ...record, chainId })
    }
    for (const log of logs) await log.flush()
    expect(store.data.userOperations.map((r) => [r.seq, r.chainId])).toEqual([
      [0, 1],
      [2, 1],
      [1, 2],
      [3, 2],
    ])
    const listed = await Promise.all(logs.map((log) => log.list({ limit: 10 })))
    expect(listed.map((records) => records.map((r) => r.seq))).toEqual([
      [2, 0],
      [3, 1],
    ])
    const [firstHash] = store.data.userOperations.map((r) => r.userOpHash)
    expect(logs[0].get(firstHash as string)?.chainId).toBe(1)
    expect(logs[1].get(firstHash as string)).toBeUndefined()
    // Read again (after a revert of the other chain's records), a log keeps its own and numbers on.
    logs[1].reload()
    const { seq: _s, createdAt: _c, updatedAt: _u, ...record } = makeUserOperationRecord(9)
    expect(logs[1].add({ ...record, chainId: 2 }).seq).toBe(4)
    for (const log of logs) await log.close()
  })
})
