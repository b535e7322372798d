import type { Address } from 'viem'
import type { DappPolicies, SpendingLimit } from '../../../shared/api/dapps'
import type { StepOutcome } from './types'

/** A mined sponsored operation, as the limits count it. */
export type LimitUsage = { sender: Address; gasCostWei: bigint; minedAt: number }

const SECONDS = { hour: 3600, day: 86_400 } as const

export function getCycleSeconds(cycle: SpendingLimit['cycleDuration']): number {
  return cycle.value * SECONDS[cycle.unit]
}

/**
 * Start (unix seconds) of the cycle that holds `now`. Cycles are aligned to the unix epoch (UTC), so a
 * 1-day limit resets at 00:00 UTC and a 1-hour limit on the hour.
 */
export function getCycleStart(now: number, cycle: SpendingLimit['cycleDuration']): number {
  const length = getCycleSeconds(cycle)
  return Math.floor(now / length) * length
}

/** The earliest cycle start among active limits: usage older than this never counts. */
export function getEarliestCycleStart(limits: SpendingLimit[], now: number): number {
  let earliest = now
  for (const limit of limits)
    if (limit.active) earliest = Math.min(earliest, getCycleStart(now, limit.cycleDuration))
  return earliest
}

export type CheckLimitsParameters = {
  policies: Pick<DappPolicies, 'limits' | 'validAfter' | 'validUntil'>
  /** Mined sponsored operations of the dApp (any sender, any time). */
  usage: LimitUsage[]
  sender: Address
  /** Unix seconds. */
  now: number
}

/**
 * The dApp's validity window and spending limits (per smart account or global; by count or by native gas
 * spent; per cycle). A limit is reached when what was mined in the current cycle is at or above its threshold.
 */
export function checkLimits({ policies, usage, sender, now }: CheckLimitsParameters): StepOutcome {
  const notes: string[] = []
  if (policies.validAfter !== null && now < policies.validAfter) {
    return {
      outcome: 'fail',
      detail: `Sponsorship starts at ${formatTime(policies.validAfter)} (now ${formatTime(now)})`,
    }
  }
  if (policies.validUntil !== null && now > policies.validUntil) {
    return {
      outcome: 'fail',
      detail: `Sponsorship ended at ${formatTime(policies.validUntil)} (now ${formatTime(now)})`,
    }
  }
  if (policies.validAfter !== null || policies.validUntil !== null) {
    notes.push(
      `inside the validity window ${policies.validAfter === null ? '-' : formatTime(policies.validAfter)} .. ${policies.validUntil === null ? '-' : formatTime(policies.validUntil)}`,
    )
  }
  const active = policies.limits.filter((l) => l.active)
  const wantedSender = sender.toLowerCase()
  for (const limit of active) {
    const since = getCycleStart(now, limit.cycleDuration)
    const counted = usage.filter(
      (u) => u.minedAt >= since && (limit.type === 'PAYMASTER' || u.sender.toLowerCase() === wantedSender),
    )
    const used =
      limit.thresholdType === 'COUNT'
        ? BigInt(counted.length)
        : counted.reduce((sum, u) => sum + u.gasCostWei, 0n)
    const threshold = BigInt(limit.threshold)
    const unit = limit.thresholdType === 'COUNT' ? 'operations' : 'wei'
    const scope = limit.type === 'PAYMASTER' ? 'dApp-wide' : 'per smart account'
    const cycle = `${limit.cycleDuration.value} ${limit.cycleDuration.unit}${limit.cycleDuration.value === 1 ? '' : 's'}`
    const text = `${scope} limit ${used} of ${threshold} ${unit} used in this ${cycle} cycle (since ${formatTime(since)}, next reset ${formatTime(since + getCycleSeconds(limit.cycleDuration))})`
    if (used >= threshold) return { outcome: 'fail', detail: `Spending limit reached: ${text}` }
    notes.push(text)
  }
  if (notes.length === 0) return { outcome: 'pass', detail: 'No spending limits or validity window are set' }
  return { outcome: 'pass', detail: notes.join('; ') }
}

/** ISO time of a unix second; a time no date can show (stored before its range was checked) as the number. */
function formatTime(unix: number): string {
  const date = new Date(unix * 1000)
  return Number.isNaN(date.getTime()) ? `unix ${unix}` : date.toISOString().replace('.000Z', 'Z')
}
