import type { Chain } from '../chain'
import { ChainError } from '../errors'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import type { UsageTracker } from '../policy/trackSponsorshipUsage'
import type { Store } from '../store/openStore'

/** What the paymaster needs from the service (passed down from createService). */
export type PaymasterDeps = {
  store: Store
  /** The running chain, or undefined while it starts / is down. */
  getChain: () => Chain | undefined
  events?: EventBus
  log: Logger
  /** Webhook time-out in ms (config.webhookTimeoutMs; the console can change it while running). */
  getWebhookTimeoutMs: () => number
  usage: UsageTracker
}

export function requireChain(deps: Pick<PaymasterDeps, 'getChain'>): Chain {
  const chain = deps.getChain()
  if (!chain)
    throw new ChainError(
      'The chain is not running yet; the paymaster cannot sign or estimate until it is ready',
    )
  return chain
}
