import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { isValidReplacement, Mempool } from '../../../src/main/service/bundler/mempool/mempool'
import { makeMempoolEntry as entry } from './makeMempoolEntry'

const A = '0xaAaAaAaaAaAaAaaAaAAAAAAAAaaaAaAaAaaAaaAa'
const B = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'

describe('Mempool', () => {
  it('bundles each sender in nonce order, senders by their oldest operation, whatever the arrival order', () => {
    const pool = new Mempool()
    const b0 = entry(B, 0n)
    const a1 = entry(A, 1n)
    const a0 = entry(A, 0n)
    const b1 = entry(B, 1n)
    for (const e of [b0, a1, a0, b1]) pool.add(e)
    const bundle = pool.selectForBundle({ maxOperations: 10, maxGas: 10n ** 9n })
    expect(bundle.map((e) => [e.userOperation.sender, e.userOperation.nonce])).toEqual([
      [B, 0n],
      [B, 1n],
      [A, 0n],
      [A, 1n],
    ])
  })

  it('stops a sender at a nonce gap or at an operation already being bundled', () => {
    const pool = new Mempool()
    pool.add(entry(A, 0n))
    pool.add(entry(A, 2n))
    pool.add(entry(B, 0n, { state: 'bundling' }))
    pool.add(entry(B, 1n))
    expect(
      pool.selectForBundle({ maxOperations: 10, maxGas: 10n ** 9n }).map((e) => e.userOperation.nonce),
    ).toEqual([0n])
  })

  it('STO-041: leaves out, and keeps pending, an operation whose validation touched the storage of another pending sender', () => {
    const pool = new Mempool()
    const [a, b] = [A.toLowerCase() as Address, B.toLowerCase() as Address]
    const first = entry(A, 0n, { storageAddresses: [a] })
    // B's validation read A's storage (A is the sender of a pending operation): B waits, with its later nonces.
    const second = entry(B, 0n, { storageAddresses: [a, b] })
    const third = entry(B, 1n)
    for (const e of [first, second, third]) pool.add(e)
    expect(pool.selectForBundle({ maxOperations: 10, maxGas: 10n ** 9n })).toEqual([first])
    expect(pool.get(second.userOpHash)).toBe(second)
    // Once A's operation is gone (mined), B's goes into the next bundle.
    pool.remove(first.userOpHash)
    expect(pool.selectForBundle({ maxOperations: 10, maxGas: 10n ** 9n })).toEqual([second, third])
  })

  it('respects the operation and gas limits of a bundle', () => {
    const pool = new Mempool()
    for (let i = 0n; i < 5n; i++) pool.add(entry(A, i))
    expect(pool.selectForBundle({ maxOperations: 3, maxGas: 10n ** 9n })).toHaveLength(3)
    // 100k pvg... each operation needs 50k + 2 x 100k + 100k + 10k = 360k.
    expect(pool.selectForBundle({ maxOperations: 10, maxGas: 800_000n })).toHaveLength(2)
  })

  it('replaces the operation with the same sender and nonce and forgets the old hash', () => {
    const pool = new Mempool()
    const old = entry(A, 0n)
    pool.add(old)
    const next = entry(A, 0n)
    expect(pool.add(next)).toBe(old)
    expect(pool.get(old.userOpHash)).toBeUndefined()
    expect(pool.findBySenderNonce(A, 0n)).toBe(next)
    expect(pool.countBySender(A)).toBe(1)
  })

  it('knows whether a nonce follows pending operations without a gap, per nonce key', () => {
    const pool = new Mempool()
    pool.add(entry(A, 3n))
    pool.add(entry(A, 4n))
    expect(pool.hasContiguousPredecessors(A, 5n, 3n)).toBe(true)
    expect(pool.hasContiguousPredecessors(A, 6n, 3n)).toBe(false)
    expect(pool.hasContiguousPredecessors(A, 5n, 2n)).toBe(false)
    expect(pool.hasContiguousPredecessors(A, (1n << 64n) + 1n, 1n << 64n)).toBe(false)
  })

  it('sums the prefund a paymaster owes for its pending operations', () => {
    const paymaster = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC'
    const pool = new Mempool()
    pool.add(entry(A, 0n, { paymaster, prefund: 7n }))
    pool.add(entry(B, 0n, { paymaster, prefund: 5n }))
    pool.add(entry(B, 1n, { prefund: 100n }))
    expect(pool.pendingPrefundOf(paymaster)).toBe(12n)
    expect(pool.countByEntity(paymaster)).toBe(2)
  })
})

describe('isValidReplacement', () => {
  it('needs at least 10% more on both fee fields', () => {
    const current = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n }
    expect(isValidReplacement(current, { maxFeePerGas: 110n, maxPriorityFeePerGas: 11n })).toBe(true)
    expect(isValidReplacement(current, { maxFeePerGas: 109n, maxPriorityFeePerGas: 20n })).toBe(false)
    expect(isValidReplacement(current, { maxFeePerGas: 200n, maxPriorityFeePerGas: 10n })).toBe(false)
  })
})
