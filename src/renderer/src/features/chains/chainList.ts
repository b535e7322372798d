import type { ChainInfo, ChainStatus, ServiceInfo } from '../../../../shared/serviceInfo'

/**
 * The service's chains as the console shows them (`ServiceInfo.chains`, the first one first). With one chain the
 * console looks as it always did; with several, each page that mixes chains shows each item's chain, and the pages
 * that act on one chain (the Sandbox) pick it.
 */

type Status = Pick<ServiceInfo, 'chains'> | null | undefined
type Urls = Pick<ServiceInfo, 'chains' | 'bundlerUrl' | 'paymasterUrlTemplate' | 'rpcUrl'> | null | undefined

export type ChainTone = 'ok' | 'warn' | 'bad' | 'neutral'

/** The chains the service runs, the first one first (none without a chain). */
export function listChains(status: Status): ChainInfo[] {
  return status?.chains ?? []
}

/** Whether the service runs several chains: only then does the console name chains, filter and pick them. */
export function runsSeveralChains(status: Status): boolean {
  return listChains(status).length > 1
}

/** The chain of this id, when the service runs it. */
export function findChain(status: Status, chainId: number | null | undefined): ChainInfo | undefined {
  return chainId == null ? undefined : listChains(status).find((c) => c.chainId === chainId)
}

/**
 * The chain a page acts on: the one asked for when the service runs it, else the first chain (undefined without a
 * chain).
 */
export function pickChain(status: Status, chainId: number | null | undefined): ChainInfo | undefined {
  return findChain(status, chainId) ?? listChains(status)[0]
}

/** How the console colours a chain's state: ready is ok (warn when contracts are missing), a passing state warns. */
export function chainStateTone(state: ChainStatus['state'], missingContracts = 0): ChainTone {
  if (state === 'ready') return missingContracts > 0 ? 'warn' : 'ok'
  if (state === 'starting' || state === 'restarting' || state === 'recovering' || state === 'stalled')
    return 'warn'
  if (state === 'none') return 'neutral'
  return 'bad'
}

/** Whether a chain's state is passing (the console reads the status again soon). */
export function isChainSettling(state: ChainStatus['state']): boolean {
  return state !== 'ready' && state !== 'none'
}

export type ChainUrls = { bundlerUrl: string; paymasterUrlTemplate: string; rpcUrl: string | null }

/**
 * A chain's URLs: the service's single-chain URLs for its first chain (its chain RPC is `/rpc`) and for a chain it
 * does not run or none named, as with one chain; another chain's own (`/api/v2/{chainId}/…`, `/rpc/{chainId}`).
 */
export function chainUrlsOf(status: Urls, chainId: number | null | undefined): ChainUrls {
  if (!status) return { bundlerUrl: '', paymasterUrlTemplate: '', rpcUrl: null }
  const chain = findChain(status, chainId)
  if (!chain || chain === status.chains[0])
    return {
      bundlerUrl: status.bundlerUrl,
      paymasterUrlTemplate: status.paymasterUrlTemplate,
      rpcUrl: status.rpcUrl,
    }
  return {
    bundlerUrl: chain.bundlerUrl,
    paymasterUrlTemplate: chain.paymasterUrlTemplate,
    rpcUrl: chain.rpcUrl,
  }
}

/** A dApp's paymaster URL: its chain's template with its apiKey. */
export function paymasterUrlOf(status: Urls, dapp: { apiKey: string; chainId: number }): string {
  return status ? chainUrlsOf(status, dapp.chainId).paymasterUrlTemplate.replace('{apiKey}', dapp.apiKey) : ''
}

/** The items of one chain, or all of them for no chain (null: every chain). */
export function filterByChain<T extends { chainId: number }>(
  items: readonly T[],
  chainId: number | null,
): T[] {
  return chainId === null ? [...items] : items.filter((item) => item.chainId === chainId)
}

/**
 * The dApp a page that acts on one chain uses: the one selected when it is of that chain, else that chain's dApp of
 * the same name (the same dApp made on each chain), else that chain's first; null when the chain has none.
 */
export function pickDappOnChain<T extends { apiKey: string; name: string; chainId: number }>(
  dapps: readonly T[],
  selectedApiKey: string | null,
  chainId: number,
): T | null {
  const selected = dapps.find((d) => d.apiKey === selectedApiKey)
  if (selected?.chainId === chainId) return selected
  const onChain = filterByChain(dapps, chainId)
  return onChain.find((d) => d.name === selected?.name) ?? onChain[0] ?? null
}
