import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { Reputation } from '../../../src/main/service/bundler/mempool/reputation'
import {
  findEntityToBlame,
  recordAccepted,
  recordMined,
  recordRejectedAtBundling,
} from '../../../src/main/service/bundler/mempool/reputationAccounting'
import { makeMempoolEntry as entry } from './makeMempoolEntry'

const SENDER: Address = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'
const PAYMASTER: Address = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC'
const PAYMASTER_2: Address = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'
const FACTORY: Address = '0xDDdDddDdDdddDDddDDddDDDDdDdDDdDDdDDDDDDd'

const seen = (reputation: Reputation) =>
  Object.fromEntries(reputation.dump().map((e) => [e.address, [e.opsSeen, e.opsIncluded]]))

describe('reputation accounting', () => {
  it('counts an accepted operation for its paymaster and factory, and for its sender only when staked', () => {
    const reputation = new Reputation()
    recordAccepted(reputation, entry(SENDER, 0n, { paymaster: PAYMASTER, factory: FACTORY }))
    expect(seen(reputation)).toEqual({ [PAYMASTER]: [1, 0], [FACTORY]: [1, 0] })
    const staked = entry(SENDER, 1n, {
      paymaster: PAYMASTER,
      staked: { sender: true, factory: false, paymaster: false },
    })
    recordAccepted(reputation, staked)
    recordMined(reputation, staked)
    expect(seen(reputation)).toEqual({ [PAYMASTER]: [2, 1], [FACTORY]: [1, 0], [SENDER]: [1, 1] })
  })

  it("replacing an operation moves its paymaster's count to the new paymaster, or takes it back", () => {
    const reputation = new Reputation()
    const first = entry(SENDER, 0n, { paymaster: PAYMASTER })
    recordAccepted(reputation, first)
    const same = entry(SENDER, 0n, { paymaster: PAYMASTER })
    recordAccepted(reputation, same, first)
    expect(seen(reputation)[PAYMASTER]).toEqual([1, 0])
    const moved = entry(SENDER, 0n, { paymaster: PAYMASTER_2 })
    recordAccepted(reputation, moved, same)
    expect(seen(reputation)).toMatchObject({ [PAYMASTER]: [0, 0], [PAYMASTER_2]: [1, 0] })
    recordAccepted(reputation, entry(SENDER, 0n), moved)
    expect(seen(reputation)[PAYMASTER_2]).toEqual([0, 0])
  })

  it('blames by the EntryPoint reason: AA3x the staked sender or the paymaster, AA2x the staked factory or the sender, AA1x the factory', () => {
    const plain = entry(SENDER, 0n, { paymaster: PAYMASTER, factory: FACTORY })
    const stakedSender = { ...plain, staked: { sender: true, factory: false, paymaster: false } }
    const stakedFactory = { ...plain, staked: { sender: false, factory: true, paymaster: false } }
    expect(findEntityToBlame('AA31 paymaster deposit too low', plain)).toBe(PAYMASTER)
    expect(findEntityToBlame('AA31 paymaster deposit too low', stakedSender)).toBe(SENDER)
    expect(findEntityToBlame('AA23 reverted', plain)).toBe(SENDER)
    expect(findEntityToBlame('AA23 reverted', stakedFactory)).toBe(FACTORY)
    expect(findEntityToBlame('AA13 initCode failed or OOG', plain)).toBe(FACTORY)
    expect(findEntityToBlame('AA95 out of gas', plain)).toBeNull()
  })

  it("EREP-015: an account's failure at the second validation is not charged to its paymaster", () => {
    const reputation = new Reputation()
    reputation.set([{ address: PAYMASTER, opsSeen: 5, opsIncluded: 2 }])
    const op = entry(SENDER, 0n, {
      paymaster: PAYMASTER,
      staked: { sender: false, factory: false, paymaster: true },
    })
    recordAccepted(reputation, op)
    expect(seen(reputation)[PAYMASTER]).toEqual([6, 2])
    expect(
      recordRejectedAtBundling(reputation, op, 'AA23 reverted: No bundle for you', 'validation'),
    ).toBeNull()
    expect(seen(reputation)).toEqual({ [PAYMASTER]: [5, 2], [SENDER]: [1, 0] })
  })

  it('EREP-030: a staked account is charged for its paymaster failing; an unstaked one leaves it to the paymaster', () => {
    for (const staked of [true, false]) {
      const reputation = new Reputation()
      const op = entry(SENDER, 0n, {
        paymaster: PAYMASTER,
        staked: { sender: staked, factory: false, paymaster: false },
      })
      recordAccepted(reputation, op)
      recordRejectedAtBundling(reputation, op, 'AA31 paymaster deposit too low', 'validation')
      expect(seen(reputation)).toEqual(
        staked ? { [SENDER]: [1, 0], [PAYMASTER]: [0, 0] } : { [PAYMASTER]: [1, 0] },
      )
    }
  })

  it('EREP-020 / GREP-040: a staked factory whose account makes the bundle fail after passing alone is banned', () => {
    const reputation = new Reputation()
    const op = entry(SENDER, 0n, {
      factory: FACTORY,
      staked: { sender: false, factory: true, paymaster: false },
    })
    recordAccepted(reputation, op)
    expect(recordRejectedAtBundling(reputation, op, 'AA23 reverted: No bundle for you', 'bundle')).toBe(
      FACTORY,
    )
    expect(seen(reputation)[FACTORY]).toEqual([10_000, 0])
    expect(reputation.status(FACTORY)).toBe('banned')
  })
})
