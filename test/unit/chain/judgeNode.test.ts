import { describe, expect, it } from 'vitest'
import { judgeNode, type KnownNode } from '../../../src/main/service/chain/health/judgeNode'

const known: KnownNode = { chainId: 31337, genesisHash: '0xaaa', head: 100n }
const seen = (
  over: Partial<{ chainId: number; genesisHash: `0x${string}`; head: bigint; missing: string[] }>,
) => ({
  reachable: true as const,
  chainId: 31337,
  genesisHash: '0xaaa' as const,
  head: 120n,
  missing: [] as string[],
  ...over,
})

describe('what the service makes of a look at its node', () => {
  it('no answer is unreachable', () => {
    expect(judgeNode(known, { reachable: false, error: 'ECONNREFUSED' })).toEqual({
      state: 'unreachable',
      error: 'ECONNREFUSED',
    })
  })
  it('another chain id is the wrong chain, whatever else', () => {
    expect(judgeNode(known, seen({ chainId: 1 }))).toEqual({ state: 'wrong-chain', chainId: 1 })
  })
  it('a new genesis without the contracts is a reset; with them, a reload of the same state (ready)', () => {
    expect(judgeNode(known, seen({ genesisHash: '0xbbb', missing: ['entryPoint'] }))).toEqual({
      state: 'reset',
      why: 'a new genesis block',
      missing: ['entryPoint'],
    })
    expect(judgeNode(known, seen({ genesisHash: '0xbbb' }))).toEqual({ state: 'ready' })
  })
  it('a head gone back without the contracts is a reset (a node restarted with a fixed genesis)', () => {
    expect(judgeNode(known, seen({ head: 3n, missing: ['entryPoint'] }))).toMatchObject({
      state: 'reset',
      why: 'its head went back from block 100 to 3',
    })
  })
  it('contracts gone from the same chain are missing, to be deployed again; not checked is not missing', () => {
    expect(judgeNode(known, seen({ missing: ['tokenPaymasterV07'] }))).toEqual({
      state: 'contracts-missing',
      missing: ['tokenPaymasterV07'],
    })
    expect(judgeNode(known, seen({ missing: undefined }))).toEqual({ state: 'ready' })
  })
})

describe('a chain that mines on a timer', () => {
  it('is stalled once its head has not moved for three blocks (5 s at least), and ready while it moves', () => {
    const still = (ms: number) => ({ ...seen({}), headStillMs: ms })
    expect(judgeNode(known, still(7_000), 2_000)).toEqual({ state: 'stalled', head: 120n, stillMs: 7_000 })
    expect(judgeNode(known, still(4_000), 1_000)).toEqual({ state: 'ready' })
    expect(judgeNode(known, still(60_000))).toEqual({ state: 'ready' }) // blocks come with transactions
  })
})
