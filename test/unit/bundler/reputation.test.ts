import { describe, expect, it } from 'vitest'
import { Reputation } from '../../../src/main/service/bundler/mempool/reputation'

const PAYMASTER = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC'

describe('Reputation', () => {
  it('is ok for an entity whose operations get included', () => {
    const reputation = new Reputation()
    for (let i = 0; i < 500; i++) reputation.recordSeen(PAYMASTER)
    for (let i = 0; i < 50; i++) reputation.recordIncluded(PAYMASTER)
    expect(reputation.status(PAYMASTER)).toBe('ok')
  })

  it('throttles, then bans, an entity whose operations are seen but not included (ERC-7562 slacks 10 and 50)', () => {
    const reputation = new Reputation()
    reputation.set([{ address: PAYMASTER, opsSeen: 109, opsIncluded: 0 }])
    expect(reputation.status(PAYMASTER)).toBe('ok')
    reputation.set([{ address: PAYMASTER, opsSeen: 120, opsIncluded: 0 }])
    expect(reputation.status(PAYMASTER)).toBe('throttled')
    reputation.set([{ address: PAYMASTER, opsSeen: 510, opsIncluded: 0 }])
    expect(reputation.status(PAYMASTER)).toBe('banned')
  })

  it('dumps, decays and clears', () => {
    const reputation = new Reputation()
    reputation.set([{ address: PAYMASTER, opsSeen: 48, opsIncluded: 24 }])
    reputation.decay()
    expect(reputation.dump()).toEqual([{ address: PAYMASTER, opsSeen: 46, opsIncluded: 23, status: 'ok' }])
    reputation.clear()
    expect(reputation.dump()).toEqual([])
  })
})

describe('Reputation allowances and decay', () => {
  it('decays to 23/24 each hour, so that small counts reach zero and the entry goes', () => {
    const reputation = new Reputation()
    reputation.set([{ address: PAYMASTER, opsSeen: 1, opsIncluded: 1 }])
    reputation.decay()
    expect(reputation.dump()).toEqual([])
  })

  it('never counts opsSeen below zero', () => {
    const reputation = new Reputation()
    reputation.recordSeen(PAYMASTER, -1)
    expect(reputation.dump()).toEqual([{ address: PAYMASTER, opsSeen: 0, opsIncluded: 0, status: 'ok' }])
  })

  it('UREP-020: lets an unstaked entity have 10 pending operations, plus its inclusion rate x 10 and its inclusions', () => {
    const reputation = new Reputation()
    expect(reputation.unstakedEntityAllowance(PAYMASTER)).toBe(10)
    reputation.set([{ address: PAYMASTER, opsSeen: 40, opsIncluded: 30 }])
    expect(reputation.unstakedEntityAllowance(PAYMASTER)).toBe(10 + 7 + 30)
  })
})
