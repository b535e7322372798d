import { describe, expect, it } from 'vitest'
import {
  chainStateTone,
  chainUrlsOf,
  filterByChain,
  findChain,
  isChainSettling,
  listChains,
  paymasterUrlOf,
  pickChain,
  pickDappOnChain,
  runsSeveralChains,
} from '../../../../src/renderer/src/features/chains/chainList'
import type { ChainInfo, ServiceInfo } from '../../../../src/shared/serviceInfo'

const BASE = 'http://127.0.0.1:4337'

const chainInfo = (chainId: number, change: Partial<ChainInfo> = {}): ChainInfo => ({
  chainId,
  kind: 'embedded',
  state: 'ready',
  missing: [],
  chainTimeOffsetSeconds: 0,
  rpcUrl: `${BASE}/rpc/${chainId}`,
  bundlerUrl: `${BASE}/api/v2/${chainId}/bkey`,
  paymasterUrlTemplate: `${BASE}/api/v1/${chainId}/{apiKey}`,
  ...change,
})

type Urls = Pick<ServiceInfo, 'chains' | 'bundlerUrl' | 'paymasterUrlTemplate' | 'rpcUrl'>

/** The URL fields of a service's status: the single-chain fields are the first chain's, its RPC `/rpc`. */
const service = (...chains: ChainInfo[]): Urls => ({
  chains,
  bundlerUrl: `${BASE}/api/v2/${chains[0]?.chainId ?? 31337}/bkey`,
  paymasterUrlTemplate: `${BASE}/api/v1/${chains[0]?.chainId ?? 31337}/{apiKey}`,
  rpcUrl: chains.length ? `${BASE}/rpc` : null,
})

const one = service(chainInfo(31337))
const two = service(chainInfo(31337), chainInfo(31338, { state: 'recovering' }))

describe('the chains the console shows', () => {
  it('lists the chains the service runs, the first one first, and says several only from two on', () => {
    expect(listChains(two).map((c) => c.chainId)).toEqual([31337, 31338])
    expect(listChains(null)).toEqual([])
    expect(runsSeveralChains(two)).toBe(true)
    expect(runsSeveralChains(one)).toBe(false)
    expect(runsSeveralChains(service())).toBe(false)
  })

  it('finds a chain the service runs; a page falls back to the first chain for one it does not run', () => {
    expect(findChain(two, 31338)?.state).toBe('recovering')
    expect(findChain(two, 5)).toBeUndefined()
    expect(findChain(two, null)).toBeUndefined()
    expect(pickChain(two, 31338)?.chainId).toBe(31338)
    expect(pickChain(two, 5)?.chainId).toBe(31337)
    expect(pickChain(two, null)?.chainId).toBe(31337)
    expect(pickChain(service(), 31337)).toBeUndefined()
  })

  it('colours ready ok (warn with contracts missing), a passing state warn, an outage bad, no chain neutral', () => {
    expect(chainStateTone('ready')).toBe('ok')
    expect(chainStateTone('ready', 2)).toBe('warn')
    for (const state of ['starting', 'restarting', 'recovering', 'stalled'] as const)
      expect(chainStateTone(state)).toBe('warn')
    expect(chainStateTone('unreachable')).toBe('bad')
    expect(chainStateTone('wrong-chain')).toBe('bad')
    expect(chainStateTone('none')).toBe('neutral')
    expect(isChainSettling('recovering')).toBe(true)
    expect(isChainSettling('ready')).toBe(false)
    expect(isChainSettling('none')).toBe(false)
  })

  it("gives the first chain the service's single-chain URLs (its RPC /rpc) and another chain its own", () => {
    expect(chainUrlsOf(two, 31337)).toEqual({
      bundlerUrl: `${BASE}/api/v2/31337/bkey`,
      paymasterUrlTemplate: `${BASE}/api/v1/31337/{apiKey}`,
      rpcUrl: `${BASE}/rpc`,
    })
    expect(chainUrlsOf(two, 31338)).toEqual({
      bundlerUrl: `${BASE}/api/v2/31338/bkey`,
      paymasterUrlTemplate: `${BASE}/api/v1/31338/{apiKey}`,
      rpcUrl: `${BASE}/rpc/31338`,
    })
    // A chain the service does not run, or none named: the single-chain URLs, as with one chain.
    expect(chainUrlsOf(two, 5)).toEqual(chainUrlsOf(two, 31337))
    expect(chainUrlsOf(one, undefined).rpcUrl).toBe(`${BASE}/rpc`)
    expect(chainUrlsOf(null, 31337)).toEqual({ bundlerUrl: '', paymasterUrlTemplate: '', rpcUrl: null })
  })

  it("puts a dApp's apiKey in its own chain's paymaster URL", () => {
    expect(paymasterUrlOf(two, { apiKey: 'k.2', chainId: 31338 })).toBe(`${BASE}/api/v1/31338/k.2`)
    expect(paymasterUrlOf(two, { apiKey: 'k.1', chainId: 31337 })).toBe(`${BASE}/api/v1/31337/k.1`)
    expect(paymasterUrlOf(one, { apiKey: 'k.x', chainId: 1 })).toBe(`${BASE}/api/v1/31337/k.x`)
    expect(paymasterUrlOf(null, { apiKey: 'k.1', chainId: 31337 })).toBe('')
  })

  it("keeps one chain's items, or every item for no chain", () => {
    const items = [{ chainId: 31337 }, { chainId: 31338 }, { chainId: 31337 }]
    expect(filterByChain(items, 31337)).toEqual([items[0], items[2]])
    expect(filterByChain(items, null)).toEqual(items)
    expect(filterByChain(items, 5)).toEqual([])
  })

  it("picks the dApp of the page's chain: the one selected, else the same name there, else that chain's first", () => {
    const dapps = [
      { apiKey: 'a1', name: 'shop', chainId: 31337 },
      { apiKey: 'b2', name: 'game', chainId: 31338 },
      { apiKey: 'a2', name: 'shop', chainId: 31338 },
    ]
    expect(pickDappOnChain(dapps, 'a1', 31337)?.apiKey).toBe('a1')
    expect(pickDappOnChain(dapps, 'a1', 31338)?.apiKey).toBe('a2')
    expect(pickDappOnChain(dapps, 'b2', 31337)?.apiKey).toBe('a1')
    expect(pickDappOnChain(dapps, null, 31338)?.apiKey).toBe('b2')
    expect(pickDappOnChain(dapps, 'a1', 5)).toBeNull()
  })
})
