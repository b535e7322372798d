import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { checkMempoolRules } from '../../../src/main/service/bundler/mempool/checkMempoolRules'
import { Mempool, type MempoolEntry } from '../../../src/main/service/bundler/mempool/mempool'
import { Reputation } from '../../../src/main/service/bundler/mempool/reputation'
import { RpcError } from '../../../src/main/service/errors'
import { makeMempoolEntry as entry } from './makeMempoolEntry'

const A: Address = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'
const B: Address = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'
const PAYMASTER: Address = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC'
const FACTORY: Address = '0xDDdDddDdDdddDDddDDddDDDDdDdDDdDDdDDDDDDd'
const STAKED = { sender: true, factory: true, paymaster: true }

/** Checks and adds, as the bundler does; returns the RpcError (code and message) or 'ok'. */
function admit(mempool: Mempool, reputation: Reputation, e: MempoolEntry, maxPendingPerUnstakedSender = 4) {
  try {
    checkMempoolRules({
      mempool,
      reputation,
      entry: e,
      replacing: mempool.findBySenderNonce(e.userOperation.sender, e.userOperation.nonce),
      maxPendingPerUnstakedSender,
    })
  } catch (err) {
    if (err instanceof RpcError) return { code: err.rpcCode, message: err.message }
    throw err
  }
  mempool.add(e)
  return 'ok'
}

describe('checkMempoolRules', () => {
  it('UREP-010: an unstaked sender has at most 4 pending operations; the 5th is refused (-32505), a replacement is not counted', () => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    for (let i = 0n; i < 4n; i++) expect(admit(mempool, reputation, entry(A, i << 64n))).toBe('ok')
    expect(admit(mempool, reputation, entry(A, 4n << 64n))).toEqual({
      code: -32505,
      message: expect.stringMatching(new RegExp(`account ${A} is unstaked.*\\[UREP-010\\]`)),
    })
    expect(mempool.countBySender(A)).toBe(4)
    expect(admit(mempool, reputation, entry(A, 3n << 64n))).toBe('ok')
    // The limit is a setting.
    expect(admit(mempool, reputation, entry(A, 4n << 64n), 5)).toBe('ok')
  })

  it('UREP-011: a staked sender is not limited by count while its reputation is ok', () => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    for (let i = 0n; i < 6n; i++)
      expect(admit(mempool, reputation, entry(A, i << 64n, { staked: { ...STAKED } }))).toBe('ok')
  })

  it('GREP-010 / GREP-020: a banned entity is refused; a throttled one keeps 4 operations in the mempool (-32504)', () => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    reputation.set([{ address: PAYMASTER, opsSeen: 100_000, opsIncluded: 1 }])
    expect(admit(mempool, reputation, entry(A, 0n, { paymaster: PAYMASTER, staked: STAKED }))).toEqual({
      code: -32504,
      message: `paymaster ${PAYMASTER} is banned [GREP-010]`,
    })
    reputation.set([{ address: PAYMASTER, opsSeen: 120, opsIncluded: 1 }])
    const senders = [A, B, FACTORY, '0x1111111111111111111111111111111111111111' as Address]
    for (const sender of senders)
      expect(admit(mempool, reputation, entry(sender, 0n, { paymaster: PAYMASTER, staked: STAKED }))).toBe(
        'ok',
      )
    expect(
      admit(
        mempool,
        reputation,
        entry('0x2222222222222222222222222222222222222222', 0n, { paymaster: PAYMASTER, staked: STAKED }),
      ),
    ).toMatchObject({ code: -32504, message: expect.stringContaining(`paymaster ${PAYMASTER} is throttled`) })
  })

  it('UREP-020: an unstaked paymaster has 10 pending operations, more as its operations get included', () => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    const send = (i: number) =>
      admit(
        mempool,
        reputation,
        entry(`0x${(i + 1).toString(16).padStart(40, '0')}` as Address, 0n, { paymaster: PAYMASTER }),
      )
    for (let i = 0; i < 10; i++) expect(send(i)).toBe('ok')
    expect(send(10)).toMatchObject({ code: -32505, message: expect.stringContaining('[UREP-020]') })
    // 20 seen, 10 included: 10 + floor(0.5 * 10) + 10 = 25 allowed.
    reputation.set([{ address: PAYMASTER, opsSeen: 20, opsIncluded: 10 }])
    for (let i = 10; i < 25; i++) expect(send(i)).toBe('ok')
    expect(send(25)).toMatchObject({ code: -32505 })
  })

  it('STO-040: an address that is a sender in the mempool cannot be a paymaster or factory, and the reverse (-32502)', () => {
    const mempool = new Mempool()
    const reputation = new Reputation()
    expect(admit(mempool, reputation, entry(A, 0n))).toBe('ok')
    expect(admit(mempool, reputation, entry(B, 0n, { paymaster: A }))).toEqual({
      code: -32502,
      message: `A Paymaster at ${A} in this UserOperation is used as a sender entity in another UserOperation currently in mempool [STO-040]`,
    })
    expect(admit(mempool, reputation, entry(B, 0n, { factory: A }))).toMatchObject({
      code: -32502,
      message: expect.stringContaining(`A Factory at ${A}`),
    })

    const other = new Mempool()
    expect(admit(other, reputation, entry(B, 0n, { paymaster: A }))).toBe('ok')
    expect(admit(other, reputation, entry(A, 0n))).toEqual({
      code: -32502,
      message: `The sender address "${A}" is used as a different entity in another UserOperation currently in mempool [STO-040]`,
    })
    // Once B's operation is replaced by one without a paymaster, no pending operation uses A as an entity.
    expect(admit(other, reputation, entry(B, 0n))).toBe('ok')
    expect(admit(other, reputation, entry(A, 0n))).toBe('ok')
  })
})
