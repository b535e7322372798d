import type { Dapp } from '../../../shared/api/dapps'
import type { ChainInfo, ChainStatus } from '../../../shared/serviceInfo'
import { type Bundler, type BundlerOptions, createBundler } from '../bundler/createBundler'
import type { Chain } from '../chain'
import type { ServiceConfig } from '../config'
import { describeChainEvent } from '../console/describeChainEvent'
import type { EventBus } from '../events'
import { provisionGasTank, provisionGasTanks } from '../gasTanks/provisionGasTanks'
import type { RpcMethodRegistry } from '../jsonrpc/defineMethod'
import { type Logger, withLogFields } from '../log/logger'
import { createPaymaster, type Paymaster } from '../paymaster/createPaymaster'
import { forgetGasTanksFunded } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { captureStore, resetStoreActivity, restoreStore, type StoreScope } from '../store/storeSnapshots'
import type { RecordSequence } from '../store/userOperations.repo'
import { createRpcMethods } from './createRpcMethods'

/** Settings that take effect without a restart; the bundlers and paymasters of every chain read them per request. */
export type RuntimeSettings = Pick<ServiceConfig, 'bundlingMode' | 'unsafe' | 'webhookTimeoutMs'>

/** Everything one chain of a service holds: its node, its status, its bundler and paymaster, its URLs' methods. */
export type ChainStack = {
  readonly chainId: number
  readonly chain: Chain
  /** As the console and the status route show it; changed by the chain's events. */
  readonly status: ChainStatus
  readonly bundler: Bundler
  readonly paymaster: Paymaster
  /** The JSON-RPC methods of this chain's bundler URL and paymaster URLs. */
  readonly rpcMethods: { bundler: RpcMethodRegistry; paymaster: RpcMethodRegistry }
  /** Gives a dApp of this chain its gas tanks. */
  provisionDapp: (dapp: Dapp) => Promise<void>
  /** The chain's entry of the service's `chains` (its URLs under `baseUrl`). */
  describe: (baseUrl: string, bundlerKey: string) => ChainInfo
  /** Once the service listens: the paymaster follows the chain, and the dApps' gas tanks are brought up to date. */
  start: () => Promise<void>
  /** Stops the paymaster and the bundler, their records written (the caller stops the chain, after the store's last write). */
  close: () => Promise<void>
}

export type ComposeChainStackParameters = {
  chain: Chain
  store: Store
  events: EventBus
  log: Logger
  runtime: RuntimeSettings
  bundlerOptions: Partial<BundlerOptions>
  /**
   * Undefined in a service of one chain (its snapshots take the whole store document, its log every record); in a
   * service of several chains, this chain's id: its snapshots take its records only, and `records` says where its
   * history is and where its records' numbers come from.
   */
  scope: StoreScope
  records?: { historyDir: string; sequence: RecordSequence }
}

/**
 * Composes one chain's stack on its started node: its status, paymaster, bundler, gas tanks and its parts of the
 * stack's snapshots. createService makes one per chain it runs and keeps them in its chain registry.
 */
export function composeChainStack(p: ComposeChainStackParameters): ChainStack {
  const { chain, store, events, log, runtime, scope } = p
  const { chainId } = chain
  // In a service of several chains every line of its log names its chain.
  const chainLog = scope === undefined ? log : withLogFields(log, { chainId })
  const status: ChainStatus = {
    kind: chain.kind,
    state: 'ready',
    addresses: chain.addresses,
    missing: chain.missing,
    fork: chain.fork,
  }
  const paymaster = createPaymaster({
    store,
    getChain: () => chain,
    events,
    log: chainLog,
    getWebhookTimeoutMs: () => runtime.webhookTimeoutMs,
  })
  // Back from an outage: the gas tanks of dApps created meanwhile. After a reset every tank is empty: funded again
  // as on first start.
  const restoreGasTanks = async (reset: boolean) => {
    if (reset) await forgetGasTanksFunded(store, chainId)
    const changed = await provisionGasTanks(chain, store, chainLog).catch((err) => {
      chainLog.warn({ err }, 'gas tanks not restored')
      return 0
    })
    if (changed === 0) return
    status.message = `${status.message}; the gas tanks of ${changed} dApp${changed === 1 ? '' : 's'} ${reset ? 'funded again' : 'created'}`
    chainLog.info(status.message)
    events.emit('chain.status', { state: status.state, message: status.message, chainId })
  }
  chain.onEvent((event) => {
    Object.assign(status, describeChainEvent(event, chain.rpcUrl))
    if (event.type === 'chain.reachable' || event.type === 'chain.restarted')
      chainLog.info(status.message ?? event.type)
    else chainLog.warn({ event: event.type }, status.message)
    events.emit('chain.status', { state: status.state, message: status.message, chainId })
    if (event.type === 'chain.reachable' || event.type === 'chain.recovered')
      void restoreGasTanks(event.type === 'chain.recovered' && event.reset)
  })
  // The store's part of the stack's snapshots (chain/stack/): the document goes back with the chain (all but the
  // account and the settings; in a service of several chains, this chain's records only), with the spending the
  // paymaster read from it; registered before the bundler's, whose records are read again once it is back.
  chain.stack.register({
    name: 'store',
    hold: () => paymaster.deps.usage.hold(),
    // The document on disk is the document in memory (before a capture).
    settle: () => store.flush(),
    capture: () => captureStore(store, scope),
    async restore(state) {
      await restoreStore(store, state, scope)
      paymaster.deps.usage.rewind()
    },
    async reset() {
      await resetStoreActivity(store, chainId, scope)
      paymaster.deps.usage.rewind()
      await provisionGasTanks(chain, store, chainLog)
    },
    // A restart finishing a revert or a reset puts the document (this chain's part of it) back; the gas tanks are
    // funded by the start.
    durable: {
      save: (state) => state,
      load: (saved) => JSON.stringify(saved),
      async reset() {
        await resetStoreActivity(store, chainId, scope)
        paymaster.deps.usage.rewind()
      },
    },
  })
  // The console hears of it: a revert or a reset takes records away (the Activity reads its feed again), and each
  // chain clock's moves show as that chain's time beside wall time.
  chain.stack.register({
    name: 'console events',
    capture: () => null,
    restore: () => events.emit('stack.reverted', { kind: 'revert', chainId }),
    reset: () => events.emit('stack.reverted', { kind: 'reset', chainId }),
  })
  chain.clock.onChange((chainTime) =>
    events.emit('chain.time', {
      chainTime,
      offsetSeconds: chain.clock.offsetSeconds(),
      chainId,
    }),
  )
  const bundler = createBundler({
    chain,
    store,
    events,
    log: chainLog,
    settings: runtime,
    options: p.bundlerOptions,
    onBundleMined: paymaster.observeMinedBundle,
    records: p.records,
  })
  const rpcMethods = createRpcMethods(() => bundler, paymaster)

  return {
    chainId,
    chain,
    status,
    bundler,
    paymaster,
    rpcMethods,
    provisionDapp: (dapp) => provisionGasTank(chain, store, dapp),
    describe: (baseUrl, bundlerKey) => ({
      chainId,
      kind: chain.kind,
      state: status.state,
      missing: status.missing,
      message: status.message,
      chainTimeOffsetSeconds: chain.clock.offsetSeconds(),
      // The embedded chain is reached through the service's guarded chain RPC (chainRpcRoutes.ts); an external node
      // by its own URL.
      rpcUrl: chain.kind === 'embedded' ? `${baseUrl}/rpc/${chainId}` : chain.rpcUrl,
      bundlerUrl: `${baseUrl}/api/v2/${chainId}/${bundlerKey}`,
      paymasterUrlTemplate: `${baseUrl}/api/v1/${chainId}/{apiKey}`,
    }),
    async start() {
      paymaster.start()
      // dApps created while no chain ran (or on another node) get their gas tanks now, and dApps from before
      // EntryPoint v0.7/v0.8 the tanks of those versions.
      await provisionGasTanks(chain, store, chainLog)
    },
    async close() {
      await paymaster.stop()
      await bundler.close()
    },
  }
}
