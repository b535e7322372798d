import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { classifyNodeWrite } from '../../../src/main/service/chain/journal/classifyNodeWrite'
import { createWriteGate } from '../../../src/main/service/chain/journal/createWriteGate'
import { type JournalEntry, openWriteJournal } from '../../../src/main/service/chain/journal/openWriteJournal'
import { replayWrites } from '../../../src/main/service/chain/journal/replayWrites'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'
import type { Logger } from '../../../src/main/service/log/logger'
import { makeTempDir } from '../../helpers/makeTempDir'

const log = { warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger

/** A node that mines every transaction at once in its own block and remembers every call. */
function fakeNode(options: { present?: string[] } = {}) {
  const calls: { method: string; params: unknown }[] = []
  const mined = new Set(options.present ?? [])
  let head = 10
  const request: NodeRequest = async (method, params) => {
    calls.push({ method, params })
    const [first] = params as unknown[]
    switch (method) {
      case 'eth_sendRawTransaction':
        head++
        mined.add(`hash:${first}`)
        return `hash:${first}`
      case 'eth_getBlockByNumber':
        return { number: `0x${head.toString(16)}`, timestamp: '0x64', transactions: [...mined].slice(-1) }
      case 'eth_getTransactionByHash':
        return mined.has(first as string) ? { hash: first } : null
      case 'eth_getTransactionReceipt':
        return mined.has(first as string)
          ? { transactionHash: first, blockNumber: `0x${head.toString(16)}`, blockTimestamp: '0x64' }
          : null
      default:
        return null
    }
  }
  return { request, calls }
}

describe('classifyNodeWrite', () => {
  it('tells transactions, replayable dev methods, barriers and reads apart', () => {
    expect(classifyNodeWrite('eth_sendRawTransaction')).toBe('transaction')
    expect(classifyNodeWrite('eth_sendTransaction')).toBe('transaction')
    expect(classifyNodeWrite('anvil_setBalance')).toBe('replayable')
    expect(classifyNodeWrite('evm_mine')).toBe('replayable')
    expect(classifyNodeWrite('evm_increaseTime')).toBe('replayable')
    expect(classifyNodeWrite('anvil_reset')).toBe('barrier')
    expect(classifyNodeWrite('evm_revert')).toBe('barrier')
    expect(classifyNodeWrite('anvil_dumpState')).toBe('read')
    expect(classifyNodeWrite('evm_snapshot')).toBe('read')
    expect(classifyNodeWrite('eth_call')).toBe('read')
    expect(classifyNodeWrite('eth_getBalance')).toBe('read')
  })
})

describe('createWriteGate', () => {
  it('runs an exclusive section only once the shared ones in flight are done, and holds new ones until it ends', async () => {
    const gate = createWriteGate()
    const order: string[] = []
    let release = () => {}
    const first = gate.shared(async () => {
      order.push('shared 1 starts')
      await new Promise<void>((r) => {
        release = r
      })
      order.push('shared 1 ends')
    })
    const exclusive = gate.exclusive(async () => {
      order.push('exclusive')
    })
    await new Promise((r) => setTimeout(r, 5))
    const second = gate.shared(async () => {
      order.push('shared 2')
    })
    await new Promise((r) => setTimeout(r, 5))
    expect(order).toEqual(['shared 1 starts'])
    release()
    await Promise.all([first, exclusive, second])
    expect(order).toEqual(['shared 1 starts', 'shared 1 ends', 'exclusive', 'shared 2'])
  })
})

describe('openWriteJournal', () => {
  it('has a state-changing call on disk before its answer is returned, and a checkpoint drops what the save holds', async () => {
    const dir = await makeTempDir('opstation-journal-')
    const node = fakeNode()
    const journal = openWriteJournal({ dir, save: async () => {} })
    const request = journal.wrap(node.request)
    await request('eth_getBalance', ['0x1', 'latest'])
    expect(journal.pending()).toEqual([])
    const hash = await request('eth_sendRawTransaction', ['0xaa'])
    await request('anvil_setBalance', ['0x1', '0x10'])
    // Where the transaction landed is noted from the first receipt read of it (as the bundler reads it).
    await request('eth_getTransactionReceipt', [hash])
    // What another process reading the folder sees (the next start): both calls, the transaction with its block.
    const reopened = openWriteJournal({ dir, save: async () => {} })
    expect(reopened.pending().map((e) => [e.method, e.hash, e.block, e.timestamp])).toEqual([
      ['eth_sendRawTransaction', hash, 11, 100],
      ['anvil_setBalance', undefined, undefined, undefined],
    ])
    reopened.close()
    await journal.checkpoint(async () => {})
    expect(journal.pending()).toEqual([])
    expect(readdirSync(dir)).toEqual([])
    expect(journal.writeCount()).toBe(2)
    journal.close()
  })

  it('notes where a transaction landed from the receipt eth_sendRawTransactionSync answers, with no receipt read', async () => {
    const dir = await makeTempDir('opstation-journal-')
    const calls: string[] = []
    const receipt = { transactionHash: '0xabc', blockNumber: '0x2a', blockTimestamp: '0x65' }
    const request = (async (method: string) => {
      calls.push(method)
      return method === 'eth_sendRawTransactionSync' ? receipt : null
    }) as NodeRequest
    const journal = openWriteJournal({ dir, save: async () => {} })
    expect(await journal.wrap(request)('eth_sendRawTransactionSync', ['0x01'])).toEqual(receipt)
    const reopened = openWriteJournal({ dir, save: async () => {} })
    expect(reopened.pending().map((e) => [e.method, e.hash, e.block, e.timestamp])).toEqual([
      ['eth_sendRawTransactionSync', '0xabc', 42, 101],
    ])
    reopened.close()
    // Nothing left to look up a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expect(calls).toEqual(['eth_sendRawTransactionSync'])
    journal.close()
  })

  it('checkpoints while a transaction waits for its block (eth_sendRawTransactionSync with automine off), so a dev call can mine it', async () => {
    const dir = await makeTempDir('opstation-journal-')
    let mine = () => {}
    const request: NodeRequest = async (method) => {
      if (method === 'eth_sendRawTransactionSync')
        await new Promise<void>((resolve) => {
          mine = resolve
        })
      return method === 'eth_sendRawTransactionSync' ? { transactionHash: '0xabc' } : null
    }
    const journal = openWriteJournal({ dir, save: async () => {} })
    const wrapped = journal.wrap(request)
    const sending = wrapped('eth_sendRawTransactionSync', ['0x01'])
    await journal.checkpoint(async () => {})
    await wrapped('evm_mine', [])
    mine()
    expect(await sending).toEqual({ transactionHash: '0xabc' })
    journal.close()
  })

  it('saves the whole state right after a call that cannot be replayed (a reset), before answering it', async () => {
    const dir = await makeTempDir('opstation-journal-')
    const node = fakeNode()
    const saved: number[] = []
    const journal = openWriteJournal({ dir, save: async () => void saved.push(node.calls.length) })
    const request = journal.wrap(node.request)
    await request('anvil_setBalance', ['0x1', '0x10'])
    await request('anvil_reset', [])
    expect(saved).toEqual([2])
    expect(journal.pending()).toEqual([])
    journal.close()
  })

  it('journals a revert to a snapshot it saw taken as a note, with no whole-state save: the next start replays up to the snapshot', async () => {
    const dir = await makeTempDir('opstation-journal-')
    let snapshots = 0
    const saved: string[] = []
    const request: NodeRequest = async (method, params) => {
      if (method === 'evm_snapshot') return `0x${(snapshots++).toString(16)}`
      if (method === 'evm_revert') return (params as string[])[0] !== '0x9'
      return null
    }
    const journal = openWriteJournal({ dir, save: async () => void saved.push('save') })
    const wrapped = journal.wrap(request)
    await wrapped('anvil_setBalance', ['0xa', '0x1'])
    const id = await wrapped('evm_snapshot', [])
    expect(journal.holdsSnapshots()).toBe(true)
    await wrapped('anvil_setBalance', ['0xb', '0x2'])
    await wrapped('evm_snapshot', [])
    await wrapped('anvil_setBalance', ['0xc', '0x3'])
    expect(journal.lastRevertAt()).toBeUndefined()
    const before = Date.now()
    expect(await wrapped('evm_revert', [id])).toBe(true)
    // When the revert was noted: a state anvil dumped before it is not the base the note replays on.
    expect(journal.lastRevertAt()).toBeGreaterThanOrEqual(before)
    expect(journal.lastRevertAt()).toBeLessThanOrEqual(Date.now())
    await wrapped('anvil_setBalance', ['0xd', '0x4'])
    expect(saved).toEqual([])
    // The revert used up both snapshots: nothing holds the saver back.
    expect(journal.holdsSnapshots()).toBe(false)
    const reopened = openWriteJournal({ dir, save: async () => {} })
    expect(reopened.pending().map((e) => e.params)).toEqual([
      ['0xa', '0x1'],
      ['0xd', '0x4'],
    ])
    reopened.close()
    journal.close()
  })

  it('saves the whole state on a revert to a snapshot taken before a checkpoint (the note could not be replayed)', async () => {
    const dir = await makeTempDir('opstation-journal-')
    const saved: string[] = []
    const request: NodeRequest = async (method) =>
      method === 'evm_snapshot' ? '0x0' : method === 'evm_revert'
    const journal = openWriteJournal({ dir, save: async () => void saved.push('save') })
    const wrapped = journal.wrap(request)
    const id = await wrapped('evm_snapshot', [])
    await wrapped('anvil_setBalance', ['0xa', '0x1'])
    await journal.checkpoint(async () => {})
    expect(journal.holdsSnapshots()).toBe(false)
    expect(await wrapped('evm_revert', [id])).toBe(true)
    expect(saved).toEqual(['save'])
    expect(journal.pending()).toEqual([])
    journal.close()
  })
})

describe('replayWrites', () => {
  const tx = (seq: number, raw: string, block?: number, timestamp?: number): JournalEntry => ({
    seq,
    method: 'eth_sendRawTransaction',
    params: [raw],
    kind: 'transaction',
    hash: `hash:${raw}`,
    block,
    timestamp,
  })
  const dev = (seq: number): JournalEntry => ({
    seq,
    method: 'anvil_setBalance',
    params: ['0x1', `0x${seq}`],
    kind: 'replayable',
  })

  it('skips what the state holds, replays the rest in block order at their timestamps', async () => {
    const node = fakeNode({ present: ['hash:0x01'] })
    const entries = [dev(1), tx(2, '0x01', 5, 50), dev(3), tx(5, '0x03', 7, 70), tx(4, '0x02', 6, 60)]
    const result = await replayWrites({ request: node.request, entries, log })
    expect(result).toEqual({ replayed: 3, alreadyThere: 2, failed: 0 })
    const sent = node.calls
      .filter((c) =>
        ['eth_sendRawTransaction', 'anvil_setBalance', 'evm_setNextBlockTimestamp'].includes(c.method),
      )
      .map((c) => `${c.method}:${(c.params as unknown[])[0]}`)
    expect(sent).toEqual([
      'anvil_setBalance:0x1',
      'evm_setNextBlockTimestamp:60',
      'eth_sendRawTransaction:0x02',
      'evm_setNextBlockTimestamp:70',
      'eth_sendRawTransaction:0x03',
    ])
  })

  it('replays every transaction the state lacks even when a later-journaled one is there (answered out of order)', async () => {
    const node = fakeNode({ present: ['hash:0x02'] })
    const entries = [tx(1, '0x02', 6), tx(2, '0x01', 5)]
    const result = await replayWrites({ request: node.request, entries, log })
    expect(result.replayed).toBe(1)
    expect(node.calls.filter((c) => c.method === 'eth_sendRawTransaction').map((c) => c.params)).toEqual([
      ['0x01'],
    ])
  })
})
