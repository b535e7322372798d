import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { describe, expect, it } from 'vitest'
import {
  createStateDumpTrimmer,
  createStateDumpTrimStream,
  StateDumpLayoutError,
} from '../../../src/main/service/chain/anvil/trimStateDump'

const hex = (n: number) => `0x${n.toString(16)}`
const block = (n: number, txs: number[] = []) => ({
  header: {
    parentHash: `0x${'ab'.repeat(32)}`,
    number: hex(n),
    timestamp: hex(1_700_000_000 + n),
    extraData: '0x',
  },
  transactions: txs.map((t) => ({
    EIP1559: { hash: `0x${t.toString(16).padStart(64, '0')}`, input: '0x{"}[' },
  })),
  ommers: [],
  withdrawals: null,
})
const transaction = (t: number, blockNumber: number) => ({
  info: {
    transaction_hash: `0x${t.toString(16).padStart(64, '0')}`,
    traces: { arena: [{ label: 'a "quoted" } ] label' }] },
  },
  receipt: { type: '0x2', logs: [] },
  block_hash: `0x${'cd'.repeat(32)}`,
  block_number: blockNumber,
})

/** A dump in anvil's layout: head 10, blocks 0..10 in the order anvil's map gives them, one transaction each. */
function makeDump(best = 10) {
  const numbers = [3, 0, 10, 7, 1, 9, 2, 8, 4, 6, 5].filter((n) => n <= best)
  return {
    block: { number: hex(best + 1), timestamp: hex(1_700_000_100), gas_limit: 30_000_000 },
    accounts: {
      '0x0000000000000000000000000000000000000001': {
        nonce: 3,
        balance: '0x10',
        code: '0x',
        storage: { '0x0': '0x1' },
      },
      // Not anvil's, but JSON: strings whose quotes, backslashes and brackets must not end them or count.
      '0x0000000000000000000000000000000000000002': {
        nonce: 0,
        balance: '0x0',
        code: '0x',
        storage: { '0x1': 'a \\ "b" {c} [d] \\', '0x2': '"}]' },
      },
    },
    best_block_number: best,
    blocks: numbers.map((n) => block(n, n === 0 ? [] : [n])),
    transactions: numbers.filter((n) => n > 0).map((n) => transaction(n, n)),
    historical_states: null,
  }
}

/**
 * What the trim must give: the same document with the genesis and the blocks from `oldest` on (newest first) and
 * their transactions.
 */
function expected(dump: ReturnType<typeof makeDump>, oldest: number) {
  return {
    ...dump,
    blocks: dump.blocks
      .filter((b) => {
        const n = Number(b.header.number)
        return n === 0 || n >= oldest
      })
      .sort((a, b) => Number(b.header.number) - Number(a.header.number)),
    transactions: dump.transactions.filter((t) => t.block_number >= oldest),
  }
}

function trimInPieces(json: string, keep: number, size: number, keepBlockBytes?: number) {
  const trimmer = createStateDumpTrimmer({ keepBlocks: keep, keepBlockBytes })
  let out = ''
  for (let at = 0; at < json.length; at += size) out += trimmer.push(json.slice(at, at + size))
  out += trimmer.end()
  return { out, result: trimmer.result() }
}

describe('trimming a state dump', () => {
  it('keeps the genesis block, the newest blocks and their transactions, and every account, however the text is cut', () => {
    const dump = makeDump()
    const json = JSON.stringify(dump)
    const want = JSON.stringify(expected(dump, 8))
    for (const size of [1, 2, 3, 7, 64, json.length]) {
      const { out, result } = trimInPieces(json, 3, size)
      expect(out).toBe(want)
      expect(result).toEqual({
        bestBlockNumber: 10,
        oldestBlockKept: 8,
        blocksKept: 4,
        blocksDropped: 7,
        transactionsKept: 3,
        transactionsDropped: 7,
        bytesDropped: expect.any(Number),
      })
      // The dropped elements, without the comma each had.
      expect(result.bytesDropped).toBe(json.length - want.length - 14)
    }
  })

  it("keeps one genesis block, the chain's first, of those anvil's starts left beside each other", () => {
    const dump = makeDump()
    const later = { ...block(0), header: { ...block(0).header, timestamp: hex(1_800_000_000) } }
    const json = JSON.stringify({ ...dump, blocks: [later, ...dump.blocks] })
    const { out, result } = trimInPieces(json, 3, 13)
    expect(out).toBe(JSON.stringify(expected(dump, 8)))
    expect(result).toMatchObject({ blocksKept: 4, blocksDropped: 8 })
  })

  it('keeps a chain shorter than the window whole', () => {
    const dump = makeDump(4)
    const { out, result } = trimInPieces(JSON.stringify(dump), 8, 5)
    expect(out).toBe(JSON.stringify(expected(dump, 1)))
    expect(result.blocksDropped).toBe(0)
    expect(result.transactionsDropped).toBe(0)
  })

  it("leaves out the blocks before the first one kept (a chain's deployment), but the genesis and the head", () => {
    const dump = makeDump()
    const json = JSON.stringify(dump)
    const trimmed = (firstBlock: number) => {
      const trimmer = createStateDumpTrimmer({ keepBlocks: 64, firstBlock })
      return trimmer.push(json) + trimmer.end()
    }
    expect(trimmed(6)).toBe(JSON.stringify(expected(dump, 6)))
    // Nothing mined since the deployment: the head alone.
    expect(trimmed(11)).toBe(JSON.stringify(expected(dump, 10)))
    // The window of newest blocks still bounds what is kept.
    const trimmer = createStateDumpTrimmer({ keepBlocks: 2, firstBlock: 3 })
    expect(trimmer.push(json) + trimmer.end()).toBe(JSON.stringify(expected(dump, 9)))
  })

  it('keeps fewer of the newest blocks when theirs exceed the byte budget, and always the head block', () => {
    const dump = makeDump()
    const json = JSON.stringify(dump)
    const blockBytes = JSON.stringify(block(9, [9])).length
    // Room for the newest three blocks of the window of six.
    const three = trimInPieces(json, 6, 11, blockBytes * 3 + 10)
    expect(three.out).toBe(JSON.stringify(expected(dump, 8)))
    expect(three.result).toMatchObject({ oldestBlockKept: 8, blocksKept: 4, transactionsKept: 3 })
    // Room for none: the head block still.
    const none = trimInPieces(json, 6, 11, 1)
    expect(none.out).toBe(JSON.stringify(expected(dump, 10)))
    expect(none.result).toMatchObject({ oldestBlockKept: 10, blocksKept: 2, transactionsKept: 1 })
  })

  it('passes a dump through whole when its head comes after its blocks', () => {
    const { best_block_number, ...rest } = makeDump()
    const json = JSON.stringify({ ...rest, best_block_number })
    const { out, result } = trimInPieces(json, 3, 9)
    expect(out).toBe(json)
    expect(result.blocksDropped).toBe(0)
  })

  it('keeps every block and transaction of a dump with a null head', () => {
    const json = JSON.stringify({ ...makeDump(), best_block_number: null })
    expect(trimInPieces(json, 3, 4).out).toBe(json)
  })

  it('trims a byte stream whose multi-byte characters are split between chunks', async () => {
    const dump = { ...makeDump(), accounts: { ...makeDump().accounts, note: 'état — ✓' } }
    const bytes = Buffer.from(JSON.stringify(dump), 'utf8')
    const chunks = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1))
    const stream = createStateDumpTrimStream({ keepBlocks: 2 })
    const out = await text(Readable.from(chunks).pipe(stream))
    expect(JSON.parse(out)).toEqual(expected(dump as never, 9))
    expect(stream.result().blocksKept).toBe(3)
  })

  it('passes the bytes before the head key through unread and trims the rest as the trimmer does, however the bytes are cut', async () => {
    const dump = makeDump()
    const bytes = Buffer.from(JSON.stringify(dump), 'utf8')
    for (const size of [1, 5, 64, bytes.length]) {
      const chunks = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
        bytes.subarray(i * size, (i + 1) * size),
      )
      const stream = createStateDumpTrimStream({ keepBlocks: 3 })
      expect(await text(Readable.from(chunks).pipe(stream))).toBe(JSON.stringify(expected(dump, 8)))
      expect(stream.result()).toMatchObject({ bestBlockNumber: 10, blocksKept: 4, transactionsKept: 3 })
    }
  })

  it('fails with StateDumpLayoutError when the first head key is not the top-level one, and trims it read whole', async () => {
    const dump = makeDump()
    // An account with a field of the head key's name, before the real one.
    const nested = {
      ...dump,
      accounts: {
        ...dump.accounts,
        '0x0000000000000000000000000000000000000003': { nonce: 0, best_block_number: 1 },
      },
    }
    const json = JSON.stringify(nested)
    await expect(
      text(Readable.from([Buffer.from(json)]).pipe(createStateDumpTrimStream({ keepBlocks: 3 }))),
    ).rejects.toThrow(StateDumpLayoutError)
    const whole = createStateDumpTrimStream({ keepBlocks: 3, headFirst: false })
    expect(await text(Readable.from([Buffer.from(json)]).pipe(whole))).toBe(
      JSON.stringify(expected(nested as never, 8)),
    )
  })

  it('passes a dump without a head key through whole', async () => {
    const { best_block_number: _head, ...dump } = makeDump()
    const json = JSON.stringify(dump)
    expect(
      await text(Readable.from([Buffer.from(json)]).pipe(createStateDumpTrimStream({ keepBlocks: 3 }))),
    ).toBe(json)
  })
})
