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
})
