import type { Chain } from '../chain'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import { createUsageTracker, type MinedReceipt } from '../policy/trackSponsorshipUsage'
import type { Store } from '../store/openStore'
import { createPaymasterMethods } from './methods'
import type { PaymasterDeps } from './paymasterDeps'

export type CreatePaymasterParameters = {
  store: Store
  getChain: () => Chain | undefined
  events?: EventBus
  log: Logger
  getWebhookTimeoutMs: () => number
  /** How often mined sponsored operations are read from the chain (ms). */
  usageSyncIntervalMs?: number
}

export type Paymaster = {
  deps: PaymasterDeps
  /** The paymaster endpoint's JSON-RPC methods (register next to eth_chainId). */
  methods: ReturnType<typeof createPaymasterMethods>
  /** Starts following mined sponsored operations (spending limits). */
  start: () => void
  /** Counts the sponsored operations of a bundle the bundler mined, from its receipt (spending limits). */
  observeMinedBundle: (receipt: MinedReceipt) => void
  /** Stops following the chain and writes queued decisions and webhook calls. */
  stop: () => Promise<void>
}

/** The paymaster: JSON-RPC methods and the sponsorship-usage tracker (its console routes are in console/). */
export function createPaymaster(params: CreatePaymasterParameters): Paymaster {
  const usage = createUsageTracker({
    store: params.store,
    getChain: params.getChain,
    log: params.log,
    intervalMs: params.usageSyncIntervalMs,
  })
  const deps: PaymasterDeps = {
    store: params.store,
    getChain: params.getChain,
    events: params.events,
    log: params.log,
    getWebhookTimeoutMs: params.getWebhookTimeoutMs,
    usage,
  }
  return {
    deps,
    methods: createPaymasterMethods(deps),
    start: () => usage.start(),
    observeMinedBundle: (receipt) => usage.observeReceipt(receipt),
    async stop() {
      usage.stop()
      await params.store.flush()
    },
  }
}
