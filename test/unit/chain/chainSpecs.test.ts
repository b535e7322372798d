import { describe, expect, it } from 'vitest'
import { describeChainIds, resolveChainSpecs } from '../../../src/main/service/chain/chainSpecs'

describe('resolveChainSpecs', () => {
  it('takes chains as they are, first chain first', () => {
    const chains = [{ chainId: 31338 }, { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545' }]
    expect(resolveChainSpecs({ chains })).toEqual(chains)
  })
  it('reads the single-chain options as one chain, whose id may come from the fork or the node', () => {
    expect(resolveChainSpecs({})).toEqual([{ chainId: undefined }])
    expect(resolveChainSpecs({ chainId: 5 })).toEqual([{ chainId: 5 }])
    expect(resolveChainSpecs({ forkUrl: 'https://r', forkBlock: 3, rpcUrl: 'http://ignored' })).toEqual([
      { chainId: undefined, forkUrl: 'https://r', forkBlock: 3 },
    ])
    expect(resolveChainSpecs({ rpcUrl: 'http://n' })).toEqual([{ chainId: undefined, rpcUrl: 'http://n' }])
  })
  it('runs no chain with noChain', () => {
    expect(resolveChainSpecs({ noChain: true })).toEqual([])
  })
})

describe('describeChainIds', () => {
  it('names the chains a service runs for its error messages', () => {
    expect(describeChainIds([])).toBe('no chain')
    expect(describeChainIds([31337])).toBe('chain 31337')
    expect(describeChainIds([31337, 31338])).toBe('chains 31337 and 31338')
    expect(describeChainIds([1, 10, 8453])).toBe('chains 1, 10 and 8453')
  })
})
