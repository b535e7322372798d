import type { Chain } from '../chain'

/** The chains a setup is applied to or exported from. */
export type SetupChains = {
  /** The chains the service runs, the first one first (a dApp or an account that names none is on it). */
  readonly chainIds: readonly number[]
  /** A running chain by id; undefined without a chain (--no-chain) or for a chain not run. */
  getChain: (chainId: number) => Chain | undefined
}
