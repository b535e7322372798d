import type {
  Account,
  Address,
  Hex,
  LocalAccount,
  PublicClient,
  Transport,
  Chain as ViemChain,
  WalletClient,
} from 'viem'
import type { OpstationAddresses, OpstationToken } from '../../../shared/chainAddresses'
import type { Logger } from '../log/logger'
import type { ChainClock } from './clock/createChainClock'
import type { NodeVerdict } from './health/judgeNode'
import type { NodeRequest } from './node/nodeRpcError'
import type { StackSnapshots } from './stack/createStackSnapshots'
import type { NonceManagers } from './transactions/createNonceManagers'

export type ChainConfig = {
  /** Data folder; the chain module uses `<dataDir>/chain/` (anvil state, keys.json) unless `chainDir` says otherwise. */
  dataDir: string
  /**
   * The folder of this chain's files (anvil's state, its write journal, fork.json, keys.json); default
   * `<dataDir>/chain`. A service of several chains gives each its own (chains/chainFolders.ts).
   */
  chainDir?: string
  /** External JSON-RPC node. Without it an embedded anvil is started. */
  rpcUrl?: string
  /**
   * Chain id of the embedded anvil (default 31337; on a fork the remote's). Ignored for external nodes: read from
   * the node.
   */
  chainId?: number
  /**
   * Run the embedded anvil as a fork of the chain at `url`, at `block` (default: its head at the first start; pinned
   * in `<dataDir>/chain/fork.json`). Contracts already there are used as they are; the rest is deployed.
   */
  fork?: { url: string; block?: number }
  /** Embedded anvil: seconds per block (interval mining). Default: automine (a block per transaction). */
  blockTime?: number
  /** Embedded anvil: path to the anvil binary (default: the `@foundry-rs/anvil-<platform>` package, then PATH). */
  anvilPath?: string
  /** Key of the EOA that sends handleOps bundles. Required on non-dev chains; generated and stored otherwise. */
  executorPrivateKey?: Hex
  /** Key of the paymasters' verifying signer. Required on non-dev chains; generated and stored otherwise. */
  paymasterSignerPrivateKey?: Hex
  /** ETH put into a new gas tank on a dev chain (default 10 ETH). */
  gasTankDefaultWei?: bigint
  /** How often the node is looked at (health/watchNode.ts); default 1 s. */
  watchIntervalMs?: number
  log?: Logger
}

/**
 * The chain's tokens and contract addresses: data types the service, its programmatic API (api/types.ts) and the
 * console share (src/shared/chainAddresses.ts).
 */
export type TokenInfo = OpstationToken
export type ChainAddresses = OpstationAddresses

export type ChainEvent =
  /** The embedded anvil exited without being asked to. */
  | { type: 'chain.exited'; code: number | null; signal: string | null }
  /** The embedded anvil was restarted (same URL) and the contracts re-verified. */
  | { type: 'chain.restarted'; rpcUrl: string; restartMs: number }
  /** Something failed in the background (a restart, a re-verification). */
  | { type: 'chain.error'; error: Error }
  /** The node stopped answering (the watch, health/watchNode.ts): calls are refused with a 503 until it is back. */
  | { type: 'chain.unreachable'; since: Date; error: string }
  /** The node answers with another chain id: left alone, calls refused. */
  | { type: 'chain.wrongChain'; chainId: number }
  /** A node mining on a timer has mined nothing for a while (calls go on; operations wait). */
  | { type: 'chain.stalled'; head: bigint; stillMs: number }
  /** It mines again. */
  | { type: 'chain.advancing' }
  /** The same node and chain are back as they were. */
  | { type: 'chain.reachable'; previous: string }
  /** The node was reset (`reset`) or lost some contracts: they are being redeployed, calls refused meanwhile. */
  | { type: 'chain.recovering'; reset: boolean; missing: string[] }
  /** Redeployed; after a reset the service's own state on chain (gas tanks, mempool) must be made again. */
  | { type: 'chain.recovered'; reset: boolean; deployed: string[] }

export type ChainEventListener = (event: ChainEvent) => void

/** What the node lets us do beyond standard JSON-RPC. */
export type NodeCapabilities = {
  /** anvil_ or hardhat_ methods answer, or the chain id is 31337/1337. */
  isDev: boolean
  /** Prefix of the dev methods (`anvil_setCode` / `hardhat_setCode`), or null. */
  devPrefix: 'anvil' | 'hardhat' | null
  clientVersion: string
  /** `eth_sendRawTransactionSync` (EIP-7966: send and get the receipt in one call) is served. */
  sendRawTransactionSync: boolean
}

export type ExecutorClient = WalletClient<Transport, ViemChain, Account>

export type Chain = {
  chainId: number
  rpcUrl: string
  kind: 'embedded' | 'external'
  /** The embedded anvil forks this chain (its URL shown without a path or query, where keys sit), or null. */
  fork: { url: string; block: number } | null
  capabilities: NodeCapabilities
  /** The embedded anvil process (null for external nodes). */
  anvil: { pid: () => number; binary: string; statePath: string; port: number } | null
  publicClient: PublicClient<Transport, ViemChain>
  /** One raw JSON-RPC call to the node (the transport publicClient uses): the result, or a NodeRpcError. */
  request: NodeRequest
  /** The chain's now (unix seconds): what every time-bound decision reads (clock/createChainClock.ts). */
  clock: ChainClock
  /**
   * The stack's snapshots: `evm_snapshot`, `evm_revert` and `anvil_reset` take the service's state with the chain;
   * the service's parts register what they keep (stack/createStackSnapshots.ts).
   */
  stack: StackSnapshots
  /** The EOA that sends handleOps bundles (funded on dev chains). */
  executor: { address: Address; client: ExecutorClient; account: LocalAccount }
  /**
   * The nonce sequence of each account the service sends from (executor, paymasterIds): every transaction the
   * service signs takes its nonce here (transactions/submitTransaction.ts; the bundle sender).
   */
  nonceManagers: NonceManagers
  /** Verifying signer of both paymasters. */
  paymasterSigner: LocalAccount
  addresses: ChainAddresses
  /** Contracts that could not be deployed on this node (e.g. no anvil_setCode on an external node). */
  missing: string[]
  /** Contracts found with code other than expected (left untouched on external nodes). */
  mismatched: string[]
  /** Contracts deployed (or code placed) by the last start or restart; empty when everything was in place. */
  deployed: string[]
  /** Initial deposit of `createGasTank` on dev chains. */
  gasTankDefaultWei: bigint
  /** Milliseconds from `startChain` call to ready. */
  startMs: number
  /** Subscribes to chain.exited / chain.restarted / chain.error; returns an unsubscribe function. */
  onEvent: (listener: ChainEventListener) => () => void
  /** Local account of a gas tank's paymasterId (keys created by `createGasTank`), or undefined. */
  getPaymasterIdAccount: (paymasterId: Address) => LocalAccount | undefined
  /** Internal: stores a new paymasterId key in keys.json. */
  addPaymasterIdKey: (privateKey: Hex) => Promise<LocalAccount>
  /** Embedded: dumps the state and stops anvil. External: no-op besides closing. */
  /** Looks at the node now (after any look under way) and returns the verdict (health/judgeNode.ts). */
  watch: () => Promise<NodeVerdict>
  /** When the watch last looked at the node (once a second); undefined before its first look. */
  readCheckedAt: () => Date | undefined
  stop: () => Promise<void>
}
