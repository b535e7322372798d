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
