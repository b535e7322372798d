import { describe, expect, it } from 'vitest'
import { checkLimits, getCycleStart, type LimitUsage } from '../../../src/main/service/policy/checkLimits'
import type { SpendingLimit } from '../../../src/shared/api/dapps'

const alice = '0xA11cE00000000000000000000000000000000001'
const bob = '0xB0B0000000000000000000000000000000000002'
const hour = { value: 1, unit: 'hour' } as const
const limit = (fields: Partial<SpendingLimit>): SpendingLimit => ({
  id: 'l1',
  type: 'SMART_ACCOUNT',
  thresholdType: 'COUNT',
  threshold: '2',
  cycleDuration: hour,
  active: true,
  ...fields,
})
const noWindow = { validAfter: null, validUntil: null }
// 10:30 UTC on some day: the hour cycle started at 10:00.
const now = 1_800_000_000 - (1_800_000_000 % 3600) + 1800
const used = (sender: string, minutesAgo: number, wei = 1000n): LimitUsage => ({
  sender: sender as `0x${string}`,
  gasCostWei: wei,
  minedAt: now - minutesAgo * 60,
})

describe('checkLimits', () => {
  it('aligns cycles to the epoch: an hour cycle starts on the hour, a 2-day cycle every other UTC midnight', () => {
    expect(getCycleStart(now, hour)).toBe(now - 1800)
    expect(getCycleStart(now, { value: 2, unit: 'day' }) % (2 * 86_400)).toBe(0)
  })

  it('passes with no limits and no window', () => {
    expect(checkLimits({ policies: { limits: [], ...noWindow }, usage: [], sender: alice, now })).toEqual({
      outcome: 'pass',
      detail: 'No spending limits or validity window are set',
    })
  })

  it('rejects the op after a per-account count limit is reached, counting only this account in this cycle', () => {
    const policies = { limits: [limit({})], ...noWindow }
    const usage = [used(alice, 10), used(alice, 40 /* previous cycle */), used(bob, 5), used(bob, 6)]
    expect(checkLimits({ policies, usage, sender: alice, now }).outcome).toBe('pass')
    const full = [...usage, used(alice, 1)]
    const verdict = checkLimits({ policies, usage: full, sender: alice, now })
    expect(verdict.outcome).toBe('fail')
    expect(verdict.detail).toMatch(
      /^Spending limit reached: per smart account limit 2 of 2 operations used in this 1 hour cycle/,
    )
  })

  it('sponsors again once the cycle has rolled over', () => {
    const policies = { limits: [limit({})], ...noWindow }
    const usage = [used(alice, 10), used(alice, 20)]
    expect(checkLimits({ policies, usage, sender: alice, now }).outcome).toBe('fail')
    expect(checkLimits({ policies, usage, sender: alice, now: now + 3600 }).outcome).toBe('pass')
  })

  it('counts every sender for a dApp-wide limit, and wei spent for NATIVE_ASSET', () => {
    const global = { limits: [limit({ type: 'PAYMASTER', threshold: '3' })], ...noWindow }
    expect(
      checkLimits({
        policies: global,
        usage: [used(bob, 1), used(bob, 2), used(alice, 3)],
        sender: alice,
        now,
      }).outcome,
    ).toBe('fail')
    const wei = { limits: [limit({ thresholdType: 'NATIVE_ASSET', threshold: '5000' })], ...noWindow }
    expect(checkLimits({ policies: wei, usage: [used(alice, 1, 4999n)], sender: alice, now }).outcome).toBe(
      'pass',
    )
    expect(
      checkLimits({ policies: wei, usage: [used(alice, 1, 4999n), used(alice, 2, 1n)], sender: alice, now })
        .detail,
    ).toMatch(/5000 of 5000 wei/)
  })

  it('ignores inactive limits', () => {
    const policies = { limits: [limit({ active: false, threshold: '1' })], ...noWindow }
    expect(checkLimits({ policies, usage: [used(alice, 1)], sender: alice, now }).outcome).toBe('pass')
  })

  it('rejects outside the validity window', () => {
    const before = checkLimits({
      policies: { limits: [], validAfter: now + 10, validUntil: null },
      usage: [],
      sender: alice,
      now,
    })
    expect(before.outcome).toBe('fail')
    expect(before.detail).toMatch(/^Sponsorship starts at /)
    const after = checkLimits({
      policies: { limits: [], validAfter: null, validUntil: now - 1 },
      usage: [],
      sender: alice,
      now,
    })
    expect(after.detail).toMatch(/^Sponsorship ended at /)
    expect(
      checkLimits({
        policies: { limits: [], validAfter: now - 1, validUntil: now + 1 },
        usage: [],
        sender: alice,
        now,
      }).outcome,
    ).toBe('pass')
  })
})
