import { z } from 'zod'
import type { Chain } from '../chain'
import type { ChainRegistry } from '../chain/chainRegistry'
import { describeChainIds } from '../chain/chainSpecs'
import { UnknownChainError } from '../errors'
import { parseInput } from '../schemas/inputFields'
import type { UserOperationLog } from '../store/userOperations.repo'

/** What the console's routes read of one chain of the service: its node and its bundler's operation log. */
export type ConsoleChain = {
  readonly chainId: number
  readonly chain: Chain
  readonly bundler: { readonly userOperations: UserOperationLog }
}

/** The service's chains as the console's routes see them (empty without a chain). */
export type ConsoleChains = Pick<ChainRegistry<ConsoleChain>, 'chainIds' | 'first' | 'list' | 'get'>

/** `?chainId=`: the chain a console route acts on; without it, the service's first chain. */
export const ChainQuery = z.object({
  chainId: z.coerce
    .number({ error: 'chainId must be a number' })
    .int({ error: 'chainId must be a whole number' })
    .positive({ error: 'chainId must be positive' })
    .optional()
    .meta({ description: "The chain (one of the service's `chains`); the first chain without it" }),
})

/** The 400 of a route that takes `?chainId=`, for the OpenAPI document. */
export const CHAIN_NOT_RUN =
  'Invalid input, or a chainId the service does not run (the message names those it runs)'

/**
 * The chain a console request names in its query (`?chainId=`), or the first chain when it names none; undefined
 * without a chain. A chain the service does not run is a 400 naming the chains it runs.
 */
export function readConsoleChain(chains: ConsoleChains, query: unknown): ConsoleChain | undefined {
  const { chainId } = parseInput(ChainQuery, query ?? {})
  return chainId === undefined ? chains.first : requireConsoleChain(chains, chainId)
}

/** The chain of this id; a chain the service does not run is a 400 naming the chains it runs. */
export function requireConsoleChain(chains: ConsoleChains, chainId: number): ConsoleChain {
  const found = chains.get(chainId)
  if (found) return found
  throw new UnknownChainError(
    `chainId ${chainId} is not served here; this service runs ${describeChainIds(chains.chainIds)}`,
    { data: { chainId, chainIds: chains.chainIds } },
  )
}
