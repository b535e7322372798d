import { describe, expect, it } from 'vitest'
import {
  createNonceManager,
  isNonceError,
} from '../../../src/main/service/chain/transactions/createNonceManager'

/** A node's nonce bookkeeping: the pending count, and the nonces it took (refusing a used or skipped one). */
function fakeNode(start = 0) {
  let pending = start
  const taken: number[] = []
  const node = {
    taken,
    reads: 0,
    readPendingNonce: async () => {
      node.reads++
      return pending
    },
    send: async (nonce: number) => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
      if (nonce < pending) throw new Error(`nonce too low: next nonce ${pending}, tx nonce ${nonce}`)
      if (nonce > pending) throw new Error(`nonce too high: next nonce ${pending}, tx nonce ${nonce}`)
      taken.push(nonce)
      pending++
      return `0x${nonce.toString(16)}`
    },
    /** Another process sends from the same account. */
    useOutside: () => {
      pending++
    },
    /** The chain restarted from an older state. */
    rewind: (to: number) => {
      pending = to
    },
  }
  return node
}

describe('nonce manager (one per sending account)', () => {
  it('gives 16 concurrent sends consecutive nonces, one node read for all', async () => {
    const node = fakeNode(7)
    const manager = createNonceManager({ readPendingNonce: node.readPendingNonce })
    const hashes = await Promise.all(Array.from({ length: 16 }, () => manager.withNextNonce(node.send)))
    expect(node.taken).toEqual(Array.from({ length: 16 }, (_, i) => 7 + i))
    expect(new Set(hashes).size).toBe(16)
    expect(node.reads).toBe(1)
  })

  it('leaves no gap when a send fails before the node took it: the next send gets its nonce', async () => {
    const node = fakeNode()
    const manager = createNonceManager({ readPendingNonce: node.readPendingNonce })
    await manager.withNextNonce(node.send)
    await expect(
      manager.withNextNonce(async () => {
        throw new Error('execution reverted')
      }),
    ).rejects.toThrow('execution reverted')
    await manager.withNextNonce(node.send)
    expect(node.taken).toEqual([0, 1])
  })

  it('recovers from a nonce another sender used (nonce too low): resyncs from the node and sends once more', async () => {
    const node = fakeNode()
    const manager = createNonceManager({ readPendingNonce: node.readPendingNonce })
    await manager.withNextNonce(node.send)
    node.useOutside()
    await manager.withNextNonce(node.send)
    expect(node.taken).toEqual([0, 2])
  })

  it('recovers from a chain that went back to an older state (nonce too high) and after resync()', async () => {
    const node = fakeNode()
    const manager = createNonceManager({ readPendingNonce: node.readPendingNonce })
    await manager.withNextNonce(node.send)
    await manager.withNextNonce(node.send)
    node.rewind(1)
    await manager.withNextNonce(node.send)
    expect(node.taken).toEqual([0, 1, 1])
    node.rewind(0)
    manager.resync()
    await manager.withNextNonce(node.send)
    expect(node.taken).toEqual([0, 1, 1, 0])
  })

  it('reads nonce errors in viem error chains and leaves other errors alone', () => {
    const viemLike = Object.assign(new Error('Transaction failed'), {
      details: 'nonce too low: next nonce 5, tx nonce 4',
    })
    expect(isNonceError(new Error('outer', { cause: viemLike }))).toBe(true)
    expect(isNonceError(new Error('replacement transaction underpriced'))).toBe(true)
    expect(isNonceError(new Error('insufficient funds for gas * price + value'))).toBe(false)
  })
})
