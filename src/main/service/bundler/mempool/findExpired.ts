import type { MempoolEntry } from './mempool'

/**
 * The operations whose validity window chain time has passed: the EntryPoint refuses them in any block from now on
 * (`block.timestamp > validUntil`), so the mempool drops them rather than bundle them. `now` is the chain's clock
 * (chain/clock/createChainClock.ts), which `evm_increaseTime` moves.
 */
export function findExpired(entries: readonly MempoolEntry[], now: number): MempoolEntry[] {
  return entries.filter((entry) => entry.validUntil !== undefined && now > entry.validUntil)
}

/** Why an expired operation was dropped: the EntryPoint's code for it, its window's end and the chain's time. */
export function describeExpired(entry: MempoolEntry, now: number): string {
  const code = entry.paymaster ? 'AA32 paymaster' : 'AA22'
  return `${code} expired or not due: valid until ${entry.validUntil}, and the chain's time is ${now}; expired in the mempool`
}
