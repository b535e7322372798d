import type { Chain } from '../chain/types'
import type { EntryPoints } from '../entryPoint/types'
import type { Store } from '../store/openStore'

/** What explaining an operation reads: the chain to trace on, the EntryPoints served, the store's registered contracts. */
export type ExplainContext = {
  chain: Chain
  entryPoints: EntryPoints
  store: Store
}
