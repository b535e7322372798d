import { type Address, getAddress } from 'viem'

export type ReputationStatus = 'ok' | 'throttled' | 'banned'

export type ReputationEntry = {
  address: Address
  opsSeen: number
  opsIncluded: number
  status: ReputationStatus
}

/** ERC-7562 reputation constants (section "Constants"; a bundler's MIN_INCLUSION_RATE_DENOMINATOR). */
export const reputationParameters = {
  minInclusionRateDenominator: 10,
  throttlingSlack: 10,
  banSlack: 50,
  /** Operations a throttled entity may have in the mempool (GREP-020). */
  throttledEntityMempoolCount: 4,
  /** Operations an unstaked factory or paymaster may have in the mempool with no inclusion record (UREP-020). */
  sameUnstakedEntityMempoolCount: 10,
  /** The most included operations that raise an unstaked entity's allowance (UREP-020). */
  maxOpsAllowedUnstakedEntity: 10_000,
  /** Added to opsSeen of an entity that made a bundle fail after passing its second validation (GREP-040). */
  banOpsSeenPenalty: 10_000,
} as const

/**
 * Reputation of the entities an EntryPoint has seen (factories, paymasters, staked senders): how many of their
 * operations were seen (accepted into the mempool) versus included on chain. An entity whose operations keep failing
 * at bundling time is throttled, then banned. `opsSeen` and `opsIncluded` decay to 23/24 every hour.
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

  /** Counts an operation using this entity in (`delta` 1) or out of (-1, never below 0) the mempool. */
  recordSeen(address: Address, delta: 1 | -1 = 1): void {
    const entry = this.#entry(address)
    entry.opsSeen = Math.max(0, entry.opsSeen + delta)
  }

  recordIncluded(address: Address): void {
    this.#entry(address).opsIncluded++
  }

  /** GREP-040: the entity made a bundle fail after its operation passed the second validation: banned. */
  recordBundleFailure(address: Address): void {
    const entry = this.#entry(address)
    entry.opsSeen += reputationParameters.banOpsSeenPenalty
    entry.opsIncluded = 0
  }

  /**
   * UREP-020: how many operations an unstaked factory or paymaster may have in the mempool, growing with its
   * inclusion record: SAME_UNSTAKED_ENTITY_MEMPOOL_COUNT + inclusionRate * 10 + min(opsIncluded, 10000), as the
   * reference bundler computes it.
   */
  unstakedEntityAllowance(address: Address): number {
    const { sameUnstakedEntityMempoolCount, maxOpsAllowedUnstakedEntity } = reputationParameters
    const entry = this.#entries.get(getAddress(address))
    if (!entry) return sameUnstakedEntityMempoolCount
    const inclusionRate = entry.opsSeen === 0 ? 0 : entry.opsIncluded / entry.opsSeen
    return (
      sameUnstakedEntityMempoolCount +
      Math.floor(inclusionRate * 10) +
      Math.min(entry.opsIncluded, maxOpsAllowedUnstakedEntity)
    )
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

  /** Hourly decay: `value = value * 23 // 24` (ERC-7562), so that small counts reach zero too. */
  decay(): void {
    for (const [address, e] of this.#entries) {
      e.opsSeen = Math.floor((e.opsSeen * 23) / 24)
      e.opsIncluded = Math.floor((e.opsIncluded * 23) / 24)
      if (e.opsSeen === 0 && e.opsIncluded === 0 && !e.status) this.#entries.delete(address)
    }
  }
}
