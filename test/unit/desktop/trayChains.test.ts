import { describe, expect, it } from 'vitest'
import { describeTrayChains } from '../../../src/main/desktop/tray'
import type { ChainInfo, ChainStatus } from '../../../src/shared/serviceInfo'

const chain = (chainId: number, state: ChainInfo['state']): ChainInfo => ({
  chainId,
  kind: 'embedded',
  state,
  missing: [],
  chainTimeOffsetSeconds: 0,
  rpcUrl: `http://127.0.0.1:1/rpc/${chainId}`,
  bundlerUrl: `http://127.0.0.1:1/api/v2/${chainId}/key`,
  paymasterUrlTemplate: `http://127.0.0.1:1/api/v1/${chainId}/{apiKey}`,
})
const status = (state: ChainStatus['state'], message?: string): ChainStatus => ({
  kind: state === 'none' ? 'none' : 'embedded',
  state,
  addresses: null,
  missing: [],
  ...(message ? { message } : {}),
})

describe('describeTrayChains', () => {
  it('gives one line to a service of one chain, with its last message in the menu and not in the tooltip', () => {
    const info = {
      chainId: 31337,
      chain: status('unreachable', 'the node stopped'),
      chains: [chain(31337, 'unreachable')],
    }
    expect(describeTrayChains(info, { messages: true })).toEqual([
      'Chain 31337: unreachable (the node stopped)',
    ])
    expect(describeTrayChains(info, { messages: false })).toEqual(['Chain 31337: unreachable'])
  })

  it('gives a line to each chain of a service of several, each with its own state', () => {
    const info = {
      chainId: 31337,
      chain: status('ready'),
      chains: [chain(31337, 'ready'), chain(31338, 'unreachable')],
    }
    expect(describeTrayChains(info, { messages: true })).toEqual([
      'Chain 31337: ready',
      'Chain 31338: unreachable',
    ])
  })

  it('says so for a service without a chain', () => {
    const info = { chainId: 31337, chain: status('none'), chains: [] }
    expect(describeTrayChains(info, { messages: true })).toEqual(['No chain (started with --no-chain)'])
    expect(describeTrayChains(info, { messages: false })).toEqual(['No chain (--no-chain)'])
  })
})
