import type { Chain, Hex } from 'viem'
import type { Explanation } from '../../shared/api/explanation.js'
import type { OpstationAddresses } from '../../shared/chainAddresses.js'

export type { Explanation as OpstationExplanation } from '../../shared/api/explanation.js'
export type { OpstationAddresses, OpstationToken } from '../../shared/chainAddresses.js'

/**
 * The public types of `opstation` (this file imports nothing of the service, so its .d.ts ships on its own). The
 * chain's addresses and tokens are data types the service and the console share (src/shared/chainAddresses.ts);
 * the options are checked against the service's config in test/integration/api/startOpstation.test.ts.
 */

/** Every `opstation serve` option, by its config name (`opstation serve --help` describes each). */
export type StartOpstationOptions = {
  /** Default 0: any free port (instances run side by side). */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Default: a fresh temporary folder, removed by `stop()`. A folder you give is kept. */
  dataDir?: string
  /** Use this node instead of the embedded anvil. */
  rpcUrl?: string
  /** Chain id of the embedded anvil (default 31337; on a fork the forked chain's). */
  chainId?: number
  /** Run the embedded anvil as a fork of the chain at this URL. */
  forkUrl?: string
  /** Block to fork at (default: the remote's head at the data folder's first start). */
  forkBlock?: number
  /**
   * Several chains at once, the first one first (`opstation serve --chains`), instead of `chainId`, `forkUrl`,
   * `forkBlock` and `rpcUrl`, which describe one chain.
   */
  chains?: OpstationChainSpec[]
  /** Seconds per block of the embedded anvil (default: a block per transaction). */
  blockTime?: number
  anvilPath?: string
  /** No chain: the dashboard API only. */
  noChain?: boolean
  /** Skip ERC-7562 validation rules. */
  unsafe?: boolean
  bundlingMode?: 'auto' | 'interval' | 'manual'
  /** Seconds of unstake delay a stake needs to count as staked for ERC-7562 (default 86400, one day). */
  minUnstakeDelay?: number
  /** Wei a stake needs to count as staked for ERC-7562 (default 1). */
  minStake?: bigint
  /** Pending UserOperations an unstaked sender may have (default 4, ERC-7562 UREP-010). */
  maxPendingPerUnstakedSender?: number
  webhookTimeoutMs?: number
  /** Folder of a built console (default: the package's). */
  consoleDir?: string
  /** Default `silent`: a test run's output stays the test runner's. */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Start with an empty store when the store file is unreadable (it is kept aside). */
  resetStore?: boolean
  /** Largest accepted request body, bytes. */
  bodyLimit?: number
  /**
   * A setup applied before `startOpstation` resolves: a path to a setup file (JSON) or the setup itself. Applied by
   * name, so a given data folder started again with it changes nothing. A setup that does not read throws, naming
   * the field (`setup: dapps[0].apiKey must look like a generated apiKey …`).
   */
  setup?: string | OpstationSetup
}

/**
 * One chain of a service: an embedded anvil (`{ chainId }`), an embedded anvil forking the chain at `forkUrl`, or the
 * external node at `rpcUrl` (its chain id must be `chainId`).
 */
export type OpstationChainSpec = { chainId: number; forkUrl?: string; forkBlock?: number; rpcUrl?: string }

/** An ETH amount as a decimal string (`"10"`, `"0.5"`), or a number. */
type EthAmount = string | number

/**
 * A setup file (`opstation serve --setup`, JSON Schema in `setup.schema.json`): what the service holds, by name.
 * Entries and fields left out are left alone; applying it twice changes nothing.
 */
export type OpstationSetup = {
  $schema?: string
  version: 1
  /**
   * The chains the service runs, when it is started without chains of its own (`--chains`, `chains`); with them, the
   * setup's must be among them.
   */
  chains?: (number | OpstationChainSpec)[]
  /** dApps by name. */
  dapps?: {
    name: string
    /** The dApp's chain (default: the service's first chain). */
    chainId?: number
    /** Fixed apiKey (shape of a generated one: 9 letters or digits, a dot, a lowercase UUID). */
    apiKey?: string
    active?: boolean
    /** Contracts by address. */
    contracts?: {
      name: string
      address: string
      /** The ABI as JSON, or stringified. */
      abi: Record<string, unknown>[] | string
      whitelistedMethods?: string[]
    }[]
    /** Webhooks by URL. */
    webhooks?: { webhookUrl: string; requestType?: 'GET' | 'POST'; active?: boolean }[]
    policies?: {
      /** Replaces the list. */
      limits?: {
        id?: string
        type: 'PAYMASTER' | 'SMART_ACCOUNT'
        thresholdType: 'COUNT' | 'NATIVE_ASSET'
        /** Operations, or wei. */
        threshold: string | number
        cycleDuration: { value: number; unit: 'hour' | 'day' }
        active?: boolean
      }[]
      /** Unix seconds, or null. */
      validAfter?: number | null
      validUntil?: number | null
      /** Premium on ERC20 fee quotes, percent. */
      premiumPercentage?: number
    }
    /** Gas tank balances by EntryPoint version, in ETH, set exactly. */
    gasTanksEth?: { '0.6'?: EthAmount; '0.7'?: EthAmount; '0.8'?: EthAmount; '0.9'?: EthAmount }
  }[]
  /** Offline USD prices of fee tokens, by address (0xEeee…EEeE is the native coin). */
  tokenPrices?: { tokenAddress: string; usdPrice: string | number; logoUrl?: string | null }[]
  /** Addresses with an ETH balance (set exactly on a dev node). */
  accounts?: { address: string; balanceEth: EthAmount; chainId?: number }[]
}

export type OpstationDapp = {
  name: string
  apiKey: string
  /** Its paymaster URL, on its chain. */
  paymasterUrl: string
  chainId: number
}

/** One chain of a running Opstation, with its own URLs. */
export type OpstationChain = {
  chainId: number
  /** The chain's JSON-RPC: `/rpc/{chainId}` of the service for an embedded chain; snapshots and time act on this chain. */
  rpcUrl: string
  /** This chain's bundler URL (`/api/v2/{chainId}/{bundlerKey}`). */
  bundlerUrl: string
  /** This chain's paymaster URL with `{apiKey}` where one of its dApps' apiKey goes. */
  paymasterUrlTemplate: string
  /** The chain for viem. */
  chain: Chain
}

/** A running Opstation: its URLs, its chain, and what a test needs to set it up. */
export type Opstation = {
  /** The dashboard REST API (and the console under /console/). */
  dashboardUrl: string
  bundlerUrl: string
  /** The paymaster URL with `{apiKey}` where a dApp's apiKey goes. */
  paymasterUrlTemplate: string
  consoleUrl: string
  /** The chain's JSON-RPC (null with `noChain`). */
  rpcUrl: string | null
  /** The first chain's id (the chain of `bundlerUrl`, `paymasterUrlTemplate` and `rpcUrl`). */
  chainId: number
  /** Every chain it runs, the first one first, each with its URLs (empty with `noChain`). */
  chains: OpstationChain[]
  /** The first chain for viem: `createPublicClient({ chain: op.chain, transport: http(op.rpcUrl) })`. */
  chain: Chain
  /** The dashboard API's credential (header `authToken`). */
  authToken: string
  /** The contracts on the chain; null with `noChain`. */
  addresses: OpstationAddresses | null
  dataDir: string
  /** The paymaster URL of a dApp. */
  paymasterUrl: (apiKey: string) => string
  /**
   * Creates a dApp (a paymaster) through the dashboard API on `chainId` (default: the first chain), its gas tanks
   * funded on a dev chain.
   */
  createDapp: (options?: { name?: string; chainId?: number }) => Promise<OpstationDapp>
  /**
   * Takes a snapshot of the whole stack of the first chain (`evm_snapshot` at `rpcUrl`; another chain's at its
   * `chains[].rpcUrl`): the chain and what the service keeps about it
   * (mempool, operation records and receipts, sponsorships and spending, gas tanks, webhook calls, dApps and their
   * policies). Resolves with its id.
   */
  snapshot: () => Promise<Hex>
  /**
   * Takes the whole stack back to a snapshot (`evm_revert`); as on anvil, the id and every later one are used up.
   * Rejects for an id unknown or used up. The auth token and the settings stay.
   */
  revert: (id: Hex) => Promise<void>
  /** Moves the chain's time forward (`evm_increaseTime`): paymaster windows, policies and the mempool follow it. */
  increaseTime: (seconds: number) => Promise<void>
  /** Mines `blocks` blocks now (`anvil_mine`; default 1). */
  mine: (blocks?: number) => Promise<void>
  /**
   * Takes the stack back to its first start (`anvil_reset`): a new chain with every contract deployed again, no
   * operations, sponsorships or spending; the dApps stay, their gas tanks funded again. Resolves once the contracts
   * are back.
   */
  reset: () => Promise<void>
  /**
   * Why an operation the service has seen did what it did (opstation_traceUserOperation): its phases, the frame a
   * failure started in and the decoded reason, the call tree, events, balance changes and gas. `formatExplanation`
   * prints it.
   */
  explain: (userOpHash: string) => Promise<Explanation>
  /** Stops the service and its anvil, frees the port, and removes the data folder it made. */
  stop: () => Promise<void>
}
