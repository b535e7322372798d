import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { dumpState } from '../../../src/main/service/chain/anvil/dumpState'
import type { NodeRequest, ReadResponseBody } from '../../../src/main/service/chain/node/nodeRpcError'
import { makeTempDir } from '../../helpers/makeTempDir'

const STATE = '{"block":{"number":"0x1"}}'

/** A node transport that reads its answer's text with the call's body reader, as the IPC and HTTP ones do. */
function nodeAnswering(result: unknown): NodeRequest {
  return async (_method: string, _params: unknown, readBody?: ReadResponseBody) => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result })
    return (readBody ?? JSON.parse)(text).result
  }
}

describe('dumpState', () => {
  it("writes anvil's gzip dump, decoded from the response text, as the plain JSON --state loads", async () => {
    const file = path.join(await makeTempDir('dump-'), 'state.json')
    await dumpState(nodeAnswering(`0x${gzipSync(STATE).toString('hex')}`), file)
    expect(await readFile(file, 'utf8')).toBe(STATE)
  })

  it('refuses an answer without state and leaves the file alone', async () => {
    const file = path.join(await makeTempDir('dump-'), 'state.json')
    await expect(dumpState(nodeAnswering(null), file)).rejects.toThrow('anvil_dumpState returned no state')
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it("trims a dump whose first head key is not the top-level one by reading it whole (not anvil's order)", async () => {
    const file = path.join(await makeTempDir('dump-'), 'state.json')
    const state = {
      block: { number: '0x3' },
      accounts: { '0x01': { nonce: 0, best_block_number: 9 } },
      best_block_number: 2,
      blocks: [0, 1, 2].map((n) => ({ header: { number: `0x${n}` } })),
      transactions: [],
    }
    const trim = await dumpState(
      nodeAnswering(`0x${gzipSync(JSON.stringify(state)).toString('hex')}`),
      file,
      {
        keepBlocks: 1,
      },
    )
    const written = JSON.parse(await readFile(file, 'utf8'))
    expect(written.accounts).toEqual(state.accounts)
    expect(written.blocks.map((b: { header: { number: string } }) => b.header.number)).toEqual(['0x2', '0x0'])
    expect(trim).toMatchObject({ bestBlockNumber: 2, blocksKept: 2, blocksDropped: 1 })
  })
})
