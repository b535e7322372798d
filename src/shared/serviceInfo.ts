import type { OpstationAddresses } from './chainAddresses'

/** What the service says about itself: the ready line, `/console/api/status` and the console's overview. */
export type ServiceInfo = {
  version: string
  dashboardUrl: string
  bundlerUrl: string
  /** Paymaster URL with `{apiKey}` where the dApp's apiKey goes. */
  paymasterUrlTemplate: string
  consoleUrl: string
  /** The console URL with this start's login token: opening it signs the browser in (a session cookie). */
  consoleLoginUrl: string
  /** The first chain's id (the chain of `bundlerUrl`, `paymasterUrlTemplate` and `rpcUrl`). */
  chainId: number
  /**
   * Every chain the service runs, the first one first, each with its own URLs (empty without a chain): what
   * `opstation serve --chains` and `startOpstation({ chains })` run. The single-chain fields above are the first's.
   */
  chains: ChainInfo[]
  /**
   * The chain's JSON-RPC URL (for wallets, viem, cast), when a chain runs: the service's guarded `/rpc` for the
   * embedded chain, the node's own URL for an external one.
   */
  rpcUrl: string | null
  dataDir: string
  chain: ChainStatus
  /**
   * Chain time minus wall time, in seconds, by the chain clock the service's decisions read (moved by
   * `evm_increaseTime` and the like); null without a chain.
   */
  chainTimeOffsetSeconds: number | null
  /** Set when this start found the store file unreadable and began with an empty store (`--reset-store`). */
  storeSetAside: StoreSetAside | null
}

/** One chain of the service and its URLs. */
export type ChainInfo = {
  chainId: number
  kind: 'embedded' | 'external'
  /** As `chain.state` of the service's (first) chain: this chain's own. */
  state: ChainStatus['state']
  /** This chain's missing contracts (as `chain.missing`). */
  missing: string[]
  /** What happened last on this chain (as `chain.message`). */
  message?: string
  /** This chain's time minus wall time, in seconds (as `chainTimeOffsetSeconds` for the first chain). */
  chainTimeOffsetSeconds: number
  /**
   * The chain's JSON-RPC URL: the service's guarded `/rpc/{chainId}` for an embedded chain (`/rpc` is the first
   * chain's too), the node's own URL for an external one.
   */
  rpcUrl: string
  /** `/api/v2/{chainId}/{bundlerKey}`. */
  bundlerUrl: string
  /** `/api/v1/{chainId}/{apiKey}`: a dApp of this chain puts its apiKey in place of `{apiKey}`. */
  paymasterUrlTemplate: string
}

/** The unreadable store file a start kept aside. */
export type StoreSetAside = {
  /** Where the unreadable file now is (`…/opstation.json.corrupt-<time>`). */
  corruptCopy: string
  /** Why it could not be read (invalid JSON, schema mismatch). */
  reason: string
  /** When it was set aside (ISO 8601). */
  at: string
}

export type ChainStatus = {
  kind: 'embedded' | 'external' | 'none'
  /**
   * The embedded chain is a fork of this chain (`--fork-url`), at this block (pinned at the data folder's first
   * start); the URL without its path or query (where a provider's key sits). Absent otherwise.
   */
  fork?: { url: string; block: number } | null
  /**
   * `unreachable`: the node does not answer; `recovering`: it was reset or lost contracts, which are being
   * redeployed; `wrong-chain`: it serves another chain id (every call that needs the chain answers 503 meanwhile);
   * `stalled`: a chain that mines on a timer has stopped mining (calls go on).
   */
  state:
    | 'starting'
    | 'ready'
    | 'restarting'
    | 'unreachable'
    | 'recovering'
    | 'wrong-chain'
    | 'stalled'
    | 'none'
  /** The chain's contracts and test tokens; null without a chain. */
  addresses: OpstationAddresses | null
  missing: string[]
  /** What happened last (an outage, a restart, a recovery), for the console. */
  message?: string
  /** When the current state began (ISO 8601). */
  since?: string
  /** When the service last looked at the node (ISO 8601; it looks once a second). */
  checkedAt?: string
}
