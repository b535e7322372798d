import type { Address } from 'viem'
import { getNonce } from '../../chain/entryPoint/getNonce'
import type { Chain } from '../../chain/types'
import type { UserOperationBase } from '../../entryPoint/types'
import type { Mempool } from '../mempool/mempool'

export type NonceTracker = {
  /** `sender:nonceKey`, the unit nonces are ordered in. */
  senderKey: (op: UserOperationBase) => string
  /** Whether an operation of the same sender and key with a lower nonce is pending or being admitted. */
  hasLowerNonce: (op: UserOperationBase) => boolean
  /** The EntryPoint's next nonce for the operation's sender and key: as last seen unless `fresh`. */
  readNonce: (op: UserOperationBase, fresh: boolean) => Promise<bigint>
  /** Our own bundle mined `op`: the sender's next nonce is at least `op.nonce + 1`. */
  recordMined: (op: UserOperationBase) => void
  /**
   * Marks `op` as being admitted. Resolves with a release function once no other operation with the same
   * sender and nonce is being admitted (the caller then decides between duplicate, replacement or new).
   */
  beginAdmission: (op: UserOperationBase) => Promise<() => void>
  /** Resolves once no lower nonce of the same sender and key is being admitted. */
  waitForLowerInFlight: (op: UserOperationBase) => Promise<void>
  /** Resolves when the mempool gains an operation, or after `ms`. */
  waitForMempoolChange: (ms: number) => Promise<void>
  /** Wakes everything waiting in `waitForMempoolChange`. */
  mempoolChanged: () => void
  /** Forgets the nonces seen (the chain went back: they are read from the node again). */
  forgetSeen: () => void
}

const MAX_KNOWN_NONCES = 50_000

/**
 * Nonce bookkeeping of admission: which nonces of a sender are being admitted right now, the EntryPoint nonces
 * last seen (read from the node, or from our own mined bundles; nonces only grow, so a stale value is too low
 * and a gap check that fails on it reads the node again), and waiters for the next operation to arrive.
 */
export function createNonceTracker({
  chain,
  mempool,
  entryPoint,
}: {
  chain: Chain
  mempool: Mempool
  entryPoint: Address
}): NonceTracker {
  const inFlight = new Map<string, Map<bigint, Promise<void>>>()
  const knownNonces = new Map<string, bigint>()
  const mempoolWaiters = new Set<() => void>()
  const senderKey = (op: UserOperationBase) => `${op.sender.toLowerCase()}:${op.nonce >> 64n}`

  const tracker: NonceTracker = {
    forgetSeen: () => knownNonces.clear(),
    senderKey,
    hasLowerNonce(op) {
      for (const n of inFlight.get(senderKey(op))?.keys() ?? []) if (n < op.nonce) return true
      return mempool.hasLowerNonce(op.sender, op.nonce)
    },
    async readNonce(op, fresh) {
      const key = senderKey(op)
      const known = knownNonces.get(key)
      if (known !== undefined && !fresh) return known
      const value = await getNonce(chain, op.sender, op.nonce >> 64n, entryPoint)
      if (knownNonces.size > MAX_KNOWN_NONCES) knownNonces.clear()
      knownNonces.set(key, value)
      return value
    },
    recordMined(op) {
      const key = senderKey(op)
      const next = op.nonce + 1n
      if ((knownNonces.get(key) ?? -1n) < next) knownNonces.set(key, next)
    },
    async beginAdmission(op) {
      const key = senderKey(op)
      for (;;) {
        let nonces = inFlight.get(key)
        if (!nonces) {
          nonces = new Map()
          inFlight.set(key, nonces)
        }
        const busy = nonces.get(op.nonce)
        if (busy) {
          // The same nonce is being validated right now: wait for it, then decide (duplicate or replacement).
          await busy
          continue
        }
        let release!: () => void
        const done = new Promise<void>((resolve) => {
          release = resolve
        })
        nonces.set(op.nonce, done)
        const owned = nonces
        return () => {
          owned.delete(op.nonce)
          if (owned.size === 0 && inFlight.get(key) === owned) inFlight.delete(key)
          release()
        }
      }
    },
    async waitForLowerInFlight(op) {
      for (;;) {
        const lower = [...(inFlight.get(senderKey(op))?.entries() ?? [])]
          .filter(([n]) => n < op.nonce)
          .map(([, p]) => p)
        if (lower.length === 0) return
        await Promise.all(lower)
      }
    },
    waitForMempoolChange: (ms) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          mempoolWaiters.delete(done)
          resolve()
        }
        const timer = setTimeout(done, ms)
        mempoolWaiters.add(done)
      }),
    mempoolChanged() {
      for (const wake of [...mempoolWaiters]) wake()
    },
  }
  return tracker
}
