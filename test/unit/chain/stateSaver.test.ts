import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { dumpState } from '../../../src/main/service/chain/anvil/dumpState'
import {
  BUSY_DUMP_INTERVAL_MS,
  startStateSaver,
} from '../../../src/main/service/chain/anvil/saveStateOnChange'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import type { Logger } from '../../../src/main/service/log/logger'
import { makeTempDir } from '../../helpers/makeTempDir'

const log = { debug: () => {}, warn: () => {} } as unknown as Logger
const STATE = '{"block":{"number":"0x1"}}'

/** A node whose block number grows on every look (a chain that never stops) and whose dump takes `dumpMs`. */
function busyNode(dumpMs: number) {
  let block = 0
  const dumps: number[] = []
  const request = (async (method: string) => {
    if (method === 'eth_blockNumber') return `0x${(++block).toString(16)}`
    if (method === 'anvil_dumpState') {
      dumps.push(Date.now())
      await new Promise((r) => setTimeout(r, dumpMs))
      return `0x${Buffer.from(STATE).toString('hex')}`
    }
    throw new Error(`unexpected ${method}`)
  }) as NodeRequest
  return { request, dumps }
}

/**
 * How long a test waits for its dumps. Each wait after a dump is twenty times what that dump took, and a loaded
 * machine stretches a 1 ms dump (its file write, the event loop) to a hundred: seconds, not milliseconds.
 */
const SAVER_WAIT_MS = 30_000

/**
 * Runs a saver over `busyNode(dumpMs)` (ticks every 10 ms, busy dumps every 50 ms) until it has dumped `count` times.
 * It waits for the dumps, not for a wall-clock window: a loaded machine stretches every dump (and so the saver's
 * waits), and how many fit in a given time is not the rule; their order and spacing are.
 */
async function runSaverUntil(dumpMs: number, count: number) {
  const statePath = path.join(await makeTempDir('opstation-saver-'), 'anvil-state.json')
  const node = busyNode(dumpMs)
  const startedAt = Date.now()
  const saver = startStateSaver({
    request: node.request,
    save: () => dumpState(node.request, statePath),
    writeCount: () => 0,
    log,
    intervalMs: 10,
    busyIntervalMs: 50,
  })
  try {
    await vi.waitFor(() => expect(node.dumps.length).toBeGreaterThanOrEqual(count), {
      timeout: SAVER_WAIT_MS,
      interval: 10,
    })
  } finally {
    await saver.stop()
  }
  return { dumps: node.dumps, statePath, startedAt }
}

/** The time between each dump and the one before it (and between the start and the first). */
function gapsOf(startedAt: number, dumps: number[]): number[] {
  return dumps.map((at, i) => at - (i === 0 ? startedAt : (dumps[i - 1] as number)))
}

describe('startStateSaver', () => {
  it(
    'dumps a busy chain every busyIntervalMs while dumps are cheap, and writes the state as plain JSON',
    async () => {
      const { dumps, statePath, startedAt } = await runSaverUntil(1, 3)
      // About one dump per 50 ms, the first after 50 ms, never one per 10 ms tick.
      for (const gap of gapsOf(startedAt, dumps)) expect(gap).toBeGreaterThanOrEqual(45)
      expect(await readFile(statePath, 'utf8')).toBe(STATE)
    },
    SAVER_WAIT_MS + 5_000,
  )

  it(
    'waits twenty times as long as the last dump took before the next, however busy the chain',
    async () => {
      const { dumps, startedAt } = await runSaverUntil(20, 3)
      // A dump of at least 20 ms: the next starts no sooner than 20 + 20 × 20 ms after it began (not 50 ms).
      for (const gap of gapsOf(startedAt, dumps).slice(1)) expect(gap).toBeGreaterThanOrEqual(420)
    },
    SAVER_WAIT_MS + 5_000,
  )

  it('dumps a chain that never goes quiet every 30 s by default, not every 3 s (the journal holds the writes between)', async () => {
    vi.useFakeTimers()
    const node = busyNode(1)
    const saver = startStateSaver({
      request: node.request,
      save: () => node.request('anvil_dumpState', []),
      writeCount: () => 0,
      log,
    })
    try {
      // Ticks every 250 ms, each seeing a new block: busy from the first look on.
      await vi.advanceTimersByTimeAsync(10_000)
      expect(node.dumps).toEqual([])
      await vi.advanceTimersByTimeAsync(BUSY_DUMP_INTERVAL_MS - 10_000 + 500)
      expect(node.dumps).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(BUSY_DUMP_INTERVAL_MS)
      expect(node.dumps).toHaveLength(2)
    } finally {
      await saver.stop()
      vi.useRealTimers()
    }
  })
})
