import { UnknownChainError } from '../errors'
import { describeChainIds } from './chainSpecs'

/**
 * What a service runs per chain, by chain id (the first chain first): routes find a URL's chain here, and a chain id
 * the service does not run gets an error naming those it runs. `Stack` is whatever one chain holds (its node, its
 * bundler, its paymaster binding, …); the registry holds any such thing keyed by its `chainId`.
 */
export type ChainRegistry<Stack extends { readonly chainId: number }> = {
  /** The chains run, the first one first. */
  readonly chainIds: readonly number[]
  /** The first chain's stack (the one today's single-chain URLs and fields stand for); undefined without a chain. */
  readonly first: Stack | undefined
  list: () => readonly Stack[]
  get: (chainId: number) => Stack | undefined
  /**
   * The stack of the chain a URL names (its `:chainId` segment, as text or number). Throws UnknownChainError, naming
   * the chains run, for another chain or a segment that is not a chain id.
   */
  resolve: (chainId: string | number) => Stack
}

export function createChainRegistry<Stack extends { readonly chainId: number }>(
  stacks: readonly Stack[],
): ChainRegistry<Stack> {
  const byId = new Map<number, Stack>()
  for (const stack of stacks) {
    if (byId.has(stack.chainId)) throw new Error(`chain ${stack.chainId} is in the registry twice`)
    byId.set(stack.chainId, stack)
  }
  const chainIds = stacks.map((s) => s.chainId)
  return {
    chainIds,
    first: stacks[0],
    list: () => stacks,
    get: (chainId) => byId.get(chainId),
    resolve(chainId) {
      const text = String(chainId)
      const stack = /^\d{1,16}$/.test(text) ? byId.get(Number(text)) : undefined
      if (stack) return stack
      throw new UnknownChainError(
        `Chain ID ${text} in the URL is not served here; this service runs ${describeChainIds(chainIds)}`,
        { data: { chainIds } },
      )
    },
  }
}
