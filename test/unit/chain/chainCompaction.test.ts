import { describe, expect, it } from 'vitest'
import {
  CompactionLostChainError,
  compactChainHistory,
  isCompactionDue,
} from '../../../src/main/service/chain/anvil/compactChainHistory'
import { startStateSaver } from '../../../src/main/service/chain/anvil/saveStateOnChange'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import type { Logger } from '../../../src/main/service/log/logger'
import { makeTempDir } from '../../helpers/makeTempDir'

const log = { debug: () => {}, warn: () => {} } as unknown as Logger
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('when the chain history is compacted', () => {
  it('at a quiet moment once anvil holds 1,000 old blocks or 16 MB the saved state does not; under load ten times the blocks or 64 MB', () => {
    const dropped = (blocksDropped: number, bytesDropped = 0) => ({ blocksDropped, bytesDropped })
    expect(isCompactionDue(undefined, true, 256)).toBe(false)
    expect(isCompactionDue(dropped(999, 15e6), true, 256)).toBe(false)
    expect(isCompactionDue(dropped(1_000), true, 256)).toBe(true)
    expect(isCompactionDue(dropped(0, 16e6), true, 256)).toBe(true)
    expect(isCompactionDue(dropped(9_999, 63e6), false, 256)).toBe(false)
    expect(isCompactionDue(dropped(10_000), false, 256)).toBe(true)
    expect(isCompactionDue(dropped(0, 64e6), false, 256)).toBe(true)
    // The default history of 64 blocks compacts past 4 times that.
    expect(isCompactionDue(dropped(4 * 64), true, 64)).toBe(true)
    expect(isCompactionDue(dropped(4 * 64 - 1), true, 64)).toBe(false)
  })

  it('the state saver compacts instead of saving when it is due, and saves as usual when compacting did nothing', async () => {
    let block = 1
    const calls: string[] = []
    const request = (async (method: string) => {
      if (method === 'eth_blockNumber') return `0x${block.toString(16)}`
      throw new Error(`unexpected ${method}`)
    }) as NodeRequest
    let due = false
    let compacts = true
    const saver = startStateSaver({
      request,
      save: async () => {
        calls.push('save')
      },
      writeCount: () => 0,
      log,
      intervalMs: 10,
      compaction: {
        due: (quiet) => due && quiet,
        run: async () => {
          calls.push(compacts ? 'compact' : 'compact (nothing done)')
          return compacts
        },
      },
    })
    /** A new block, then quiet: waits until the saver did `count` more things. */
    const mine = async (count: number) => {
      const until = calls.length + count
      block++
      for (let waited = 0; calls.length < until; waited += 10) {
        if (waited > 10_000) throw new Error(`the saver did ${calls.join(', ')}`)
        await sleep(10)
      }
    }
    await sleep(100) // the first tick takes the block as saved
    await mine(1) // a save
    due = true
    await mine(1) // due at the next quiet tick: a compaction instead of the save
    compacts = false
    await mine(2) // compacting does nothing (a transaction in anvil's pool): the save goes ahead
    due = false
    await saver.stop()
    expect(calls).toEqual(['save', 'compact', 'compact (nothing done)', 'save'])
  })

  it("touches nothing while a transaction waits in anvil's pool", async () => {
    const methods: string[] = []
    const request = (async (method: string) => {
      methods.push(method)
      if (method === 'txpool_status') return { pending: '0x1', queued: '0x0' }
      throw new Error(`unexpected ${method}`)
    }) as NodeRequest
    const statePath = `${await makeTempDir('opstation-compact-')}/anvil-state.json`
    expect(await compactChainHistory({ request, statePath })).toBeNull()
    expect(methods).toEqual(['txpool_status'])
  })

  it('fails as a lost chain when anvil does not come back with the same head after the reset', async () => {
    const head = { number: '0x10', hash: `0x${'1'.repeat(64)}`, timestamp: '0x10' }
    const state = JSON.stringify({
      block: {},
      accounts: {},
      best_block_number: 16,
      blocks: [],
      transactions: [],
    })
    let reset = false
    const request = (async (method: string) => {
      switch (method) {
        case 'txpool_status':
          return { pending: '0x0', queued: '0x0' }
        case 'eth_getBlockByNumber':
          return reset ? { ...head, hash: `0x${'2'.repeat(64)}` } : head
        case 'anvil_dumpState':
          return `0x${Buffer.from(state).toString('hex')}`
        case 'anvil_reset':
          reset = true
          return null
        default:
          return true
      }
    }) as NodeRequest
    const statePath = `${await makeTempDir('opstation-compact-')}/anvil-state.json`
    await expect(compactChainHistory({ request, statePath })).rejects.toBeInstanceOf(CompactionLostChainError)
  })
})
