import { describe, expect, it } from 'vitest'
import { watchNode } from '../../../src/main/service/chain/health/watchNode'
import type { NodeRequest } from '../../../src/main/service/chain/node/nodeRpcError'

const GENESIS = `0x${'11'.repeat(32)}` as const
const silentLog = { debug() {}, info() {}, warn() {}, error() {} } as never

/** A node answering the watch's calls, or refusing every connection while `down` is true. */
function createNode() {
  const node = { down: false }
  const request: NodeRequest = async (method) => {
    if (node.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    if (method === 'eth_chainId') return '0x7a69'
    if (method === 'eth_getBlockByNumber') return { hash: GENESIS }
    if (method === 'eth_blockNumber') return '0x5'
    if (method === 'eth_getCode') return '0x60'
    throw new Error(`unexpected ${method}`)
  }
  return { node, request }
}

describe('watchNode', () => {
  it('tells when it last looked at the node, whether the node answered or not, and hands each change over once', async () => {
    const { node, request } = createNode()
    const verdicts: string[] = []
    const watch = watchNode({
      request,
      known: { chainId: 31337, genesisHash: GENESIS, head: 5n },
      listContracts: () => [{ name: 'EntryPoint', address: `0x${'22'.repeat(20)}` }],
      onVerdict: (verdict) => {
        verdicts.push(verdict.state)
      },
      log: silentLog,
      intervalMs: 3_600_000,
    })
    try {
      expect(watch.checkedAt).toBeUndefined()
      expect((await watch.look()).state).toBe('ready')
      const first = watch.checkedAt
      expect(first).toBeInstanceOf(Date)

      node.down = true
      for (let look = 0; look < 3; look++) expect((await watch.look()).state).toBe('unreachable')
      expect(watch.checkedAt!.getTime()).toBeGreaterThanOrEqual(first!.getTime())
      expect(verdicts).toEqual(['unreachable'])
    } finally {
      watch.stop()
    }
  })
})
