import { type Address, getAddress } from 'viem'

export type ReputationStatus = 'ok' | 'throttled' | 'banned'

export type ReputationEntry = {
  address: Address
  opsSeen: number
  opsIncluded: number
  status: ReputationStatus
}

/** ERC-7562 reputation constants (section "Reputation scoring and throttling/banning"). */
export const reputationParameters = {
  minInclusionRateDenominator: 10,
  throttlingSlack: 10,
  banSlack: 50,
  /** Operations a throttled entity may have in the mempool. */
  throttledEntityMempoolCount: 4,
} as const

/**
 * Reputation of factories and paymasters: how many of their operations were seen (accepted into the mempool)
 * versus included on chain. An entity whose operations keep failing at bundling time is throttled, then banned.
 * `opsSeen` and `opsIncluded` decay by 1/24 every hour.
 */
export class Reputation {
  readonly #entries = new Map<Address, { opsSeen: number; opsIncluded: number; status?: ReputationStatus }>()

  #entry(address: Address) {
    const key = getAddress(address)
    let entry = this.#entries.get(key)
    if (!entry) {
      entry = { opsSeen: 0, opsIncluded: 0 }
      this.#entries.set(key, entry)
    }
    return entry
  }

  status(address: Address): ReputationStatus {
    const entry = this.#entries.get(getAddress(address))
    if (!entry) return 'ok'
    if (entry.status) return entry.status
    const { minInclusionRateDenominator, throttlingSlack, banSlack } = reputationParameters
    const maxSeen = Math.floor(entry.opsSeen / minInclusionRateDenominator)
    if (maxSeen <= entry.opsIncluded + throttlingSlack) return 'ok'
    if (maxSeen <= entry.opsIncluded + banSlack) return 'throttled'
    return 'banned'
  }

  recordSeen(address: Address): void {
    this.#entry(address).opsSeen++
  }

  recordIncluded(address: Address): void {
    this.#entry(address).opsIncluded++
  }

  /** debug_bundler_setReputation: replaces the counters (and optionally pins a status) of the given entities. */
  set(
    entries: { address: Address; opsSeen: number; opsIncluded: number; status?: ReputationStatus }[],
  ): void {
    for (const e of entries) {
      this.#entries.set(getAddress(e.address), {
        opsSeen: e.opsSeen,
        opsIncluded: e.opsIncluded,
        status: e.status,
      })
    }
  }

  dump(): ReputationEntry[] {
    return [...this.#entries.entries()].map(([address, e]) => ({
      address,
      opsSeen: e.opsSeen,
      opsIncluded: e.opsIncluded,
      status: this.status(address),
    }))
  }

  clear(): void {
    this.#entries.clear()
  }

  /** Hourly decay. */
  decay(): void {
    for (const [address, e] of this.#entries) {
      e.opsSeen -= Math.floor(e.opsSeen / 24)
      e.opsIncluded -= Math.floor(e.opsIncluded / 24)
      if (e.opsSeen === 0 && e.opsIncluded === 0 && !e.status) this.#entries.delete(address)
    }
  }
}
