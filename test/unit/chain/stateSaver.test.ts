import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { dumpState } from '../../../src/main/service/chain/anvil/dumpState'
import { startStateSaver } from '../../../src/main/service/chain/anvil/saveStateOnChange'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import type { Logger } from '../../../src/main/service/log/logger'
import { makeTempDir } from '../../helpers/makeTempDir'

const log = { debug: () => {}, warn: () => {} } as unknown as Logger
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
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

/** Runs a saver over `busyNode(dumpMs)` for `forMs` (ticks every 10 ms, busy dumps every 50 ms). */
async function runSaver(dumpMs: number, forMs: number) {
  const statePath = path.join(await makeTempDir('opstation-saver-'), 'anvil-state.json')
  const node = busyNode(dumpMs)
  const saver = startStateSaver({
    request: node.request,
    save: () => dumpState(node.request, statePath),
    writeCount: () => 0,
    log,
    intervalMs: 10,
    busyIntervalMs: 50,
  })
  await sleep(forMs)
  await saver.stop()
  return { dumps: node.dumps, statePath }
}

describe('startStateSaver', () => {
  it('dumps a busy chain every busyIntervalMs while dumps are cheap, and writes the state as plain JSON', async () => {
    const { dumps, statePath } = await runSaver(1, 600)
    // About one dump per 50 ms (the first after 50 ms), never one per 10 ms tick. How many fit in 600 ms depends on
    // how long each really took (a loaded machine stretches a 1 ms dump, and the saver then waits 20 times that), so
    // the count is only bounded; the spacing is the rule.
    expect(dumps.length).toBeGreaterThanOrEqual(2)
    expect(dumps.length).toBeLessThanOrEqual(12)
    for (let i = 1; i < dumps.length; i++)
      expect((dumps[i] as number) - (dumps[i - 1] as number)).toBeGreaterThanOrEqual(45)
    expect(await readFile(statePath, 'utf8')).toBe(STATE)
  })

  it('waits twenty times as long as the last dump took before the next, however busy the chain', async () => {
    const { dumps } = await runSaver(20, 1_300)
    expect(dumps.length).toBeGreaterThanOrEqual(2)
    // A dump of at least 20 ms: the next starts no sooner than 20 + 20 × 20 ms after it began (not 50 ms).
    for (let i = 1; i < dumps.length; i++) {
      expect((dumps[i] as number) - (dumps[i - 1] as number)).toBeGreaterThanOrEqual(420)
    }
  })
})
