import type { ChainSpec } from '../../../shared/chainList'

/** What the single-chain options (`chainId`, `forkUrl`, `forkBlock`, `rpcUrl`, `noChain`) and `chains` hold. */
export type ChainOptions = {
  chains?: readonly ChainSpec[]
  chainId?: number
  forkUrl?: string
  forkBlock?: number
  rpcUrl?: string
  noChain?: boolean
}

/**
 * The chains a service runs, first chain first: `chains` when given, else the one chain the single-chain options
 * describe (its chain id may be left to the fork or the node: `chainId` undefined), else none (`noChain`).
 */
export function resolveChainSpecs(
  options: ChainOptions,
): readonly (Omit<ChainSpec, 'chainId'> & { chainId?: number })[] {
  if (options.chains?.length) return options.chains
  if (options.noChain) return []
  return [
    {
      chainId: options.chainId,
      ...(options.forkUrl ? { forkUrl: options.forkUrl, forkBlock: options.forkBlock } : {}),
      ...(!options.forkUrl && options.rpcUrl ? { rpcUrl: options.rpcUrl } : {}),
    },
  ]
}

/** "chain 31337" or "chains 31337 and 31338" or "chains 1, 10 and 8453": for messages naming the chains run. */
export function describeChainIds(chainIds: readonly number[]): string {
  if (chainIds.length === 0) return 'no chain'
  if (chainIds.length === 1) return `chain ${chainIds[0]}`
  return `chains ${chainIds.slice(0, -1).join(', ')} and ${chainIds[chainIds.length - 1]}`
}
