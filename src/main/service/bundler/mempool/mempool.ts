import type { Address, Hex } from 'viem'
import type { UserOperationBase } from '../../entryPoint/types'

export type MempoolEntry = {
  userOpHash: Hex
  userOperation: UserOperationBase
  entryPoint: Address
  /** Gas a bundle must carry for it (its version's bundleGasOf). */
  bundleGas: bigint
  /** `bundling` while it is part of a bundle being simulated, sent or mined. */
  state: 'pending' | 'bundling'
  /**
   * False when it was accepted behind pending operations of the same sender and could not be fully simulated
   * yet (its account is deployed by an earlier one); the bundle simulation validates it.
   */
  validated: boolean
  /** How the ERC-7562 rules were checked when it was accepted (`none`: unsafe mode, or not validated yet). */
  rulesCheckedBy: 'native' | 'javascript' | 'none'
  /** Wei the EntryPoint reserves for it (for the paymaster deposit check). */
  prefund: bigint
  factory: Address | null
  paymaster: Address | null
  /** Which of its entities count as staked (ERC-7562 SREP-010, by the bundler's minimum stake and unstake delay). */
  staked: StakedEntities
  /**
   * Contracts whose storage its validation read or wrote (lowercase; empty when not traced): a bundle leaves it out
   * while one of them is the sender of another pending operation (STO-041).
   */
  storageAddresses: Address[]
  dappId: string | null
  /** Milliseconds since epoch. */
  addedAt: number
  /** Times a bundle with it failed to be sent or reverted. */
  attempts: number
  /**
   * v0.9: the last block its window in block numbers allows (the earlier of the account's and the paymaster's), and
   * whose window it is; a bundle built later drops it as expired (blockRangeError).
   */
  blockWindowEnd?: { block: number; entity: 'account' | 'paymaster' }
  /**
   * The end of its validity window in chain time (unix seconds; the earlier of the account's and the paymaster's),
   * when it has one: once the chain's clock passes it, it is dropped as expired (bundler/mempool/dropExpired.ts).
   */
  validUntil?: number
}

/** The EntryPoint's error for an entity's window in block numbers (v0.9): AA27 for the account, AA37 the paymaster. */
export function blockRangeError(entity: 'account' | 'paymaster'): string {
  return entity === 'account' ? 'AA27 outside valid block range' : 'AA37 paymaster inval block range'
}

export type StakedEntities = { sender: boolean; factory: boolean; paymaster: boolean }

type NonceSequence = Map<bigint, Hex>

/** Fee bump a replacement needs on both fee fields, in percent. */
export const REPLACEMENT_FEE_BUMP_PERCENT = 10n

/** Whether `next` may replace `current` (same sender and nonce): both fees up by at least 10 %. */
export function isValidReplacement(
  current: Pick<UserOperationBase, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
  next: Pick<UserOperationBase, 'maxFeePerGas' | 'maxPriorityFeePerGas'>,
): boolean {
  const bumped = (fee: bigint) => fee + (fee * REPLACEMENT_FEE_BUMP_PERCENT + 99n) / 100n
  return (
    next.maxFeePerGas >= bumped(current.maxFeePerGas) &&
    next.maxPriorityFeePerGas >= bumped(current.maxPriorityFeePerGas)
  )
}

/**
 * The pending UserOperations: by hash, and by sender and nonce (one per nonce; a replacement swaps it).
 * Bundles take each sender's operations in nonce order, senders in the order their oldest operation arrived.
 */
export class Mempool {
  readonly #byHash = new Map<Hex, MempoolEntry>()
  /** sender (lower case) → nonce key (upper 192 bits) → sequence → hash */
  readonly #bySender = new Map<string, Map<bigint, NonceSequence>>()

  get size(): number {
    return this.#byHash.size
  }

  get(userOpHash: Hex): MempoolEntry | undefined {
    return this.#byHash.get(userOpHash)
  }

  /** The operation with this sender and full nonce, if any. */
  findBySenderNonce(sender: Address, nonce: bigint): MempoolEntry | undefined {
    const hash = this.#bySender
      .get(sender.toLowerCase())
      ?.get(nonce >> 64n)
      ?.get(nonce)
    return hash ? this.#byHash.get(hash) : undefined
  }

  countBySender(sender: Address): number {
    let count = 0
    for (const sequence of this.#bySender.get(sender.toLowerCase())?.values() ?? []) count += sequence.size
    return count
  }

  /** Operations that use this address as sender, factory or paymaster. */
  countByEntity(address: Address): number {
    const key = address.toLowerCase()
    let count = 0
    for (const entry of this.#byHash.values()) if (usesEntity(entry, key)) count++
    return count
  }

  /** The operations that use this address as sender, factory or paymaster. */
  entriesUsing(address: Address): MempoolEntry[] {
    const key = address.toLowerCase()
    return [...this.#byHash.values()].filter((entry) => usesEntity(entry, key))
  }

  /** Prefund the EntryPoint will reserve from this paymaster for all its pending operations. */
  pendingPrefundOf(paymaster: Address): bigint {
    let total = 0n
    for (const entry of this.#byHash.values()) if (entry.paymaster === paymaster) total += entry.prefund
    return total
  }

  /** This sender's operations (every nonce key). */
  entriesOfSender(sender: Address): MempoolEntry[] {
    const out: MempoolEntry[] = []
    for (const sequence of this.#bySender.get(sender.toLowerCase())?.values() ?? []) {
      for (const hash of sequence.values()) {
        const entry = this.#byHash.get(hash)
        if (entry) out.push(entry)
      }
    }
    return out
  }

  /** Whether an operation of this sender and nonce key with a lower nonce is pending. */
  hasLowerNonce(sender: Address, nonce: bigint): boolean {
    for (const n of this.#bySender
      .get(sender.toLowerCase())
      ?.get(nonce >> 64n)
      ?.keys() ?? [])
      if (n < nonce) return true
    return false
  }

  /** Whether any entry is waiting to be bundled. */
  hasPending(): boolean {
    for (const entry of this.#byHash.values()) if (entry.state === 'pending') return true
    return false
  }

  /**
   * Whether every nonce from `from` up to (not including) `nonce` of this sender and key is in the pool,
   * i.e. `nonce` follows pending operations without a gap.
   */
  hasContiguousPredecessors(sender: Address, nonce: bigint, from: bigint): boolean {
    const sequence = this.#bySender.get(sender.toLowerCase())?.get(nonce >> 64n)
    if (!sequence || from >= nonce) return false
    for (let n = from; n < nonce; n++) if (!sequence.has(n)) return false
    return true
  }

  /** Adds an entry, replacing the one with the same sender and nonce (returned). */
  add(entry: MempoolEntry): MempoolEntry | undefined {
    const { sender, nonce } = entry.userOperation
    const replaced = this.findBySenderNonce(sender, nonce)
    if (replaced) this.remove(replaced.userOpHash)
    this.#byHash.set(entry.userOpHash, entry)
    const senderKey = sender.toLowerCase()
    let keys = this.#bySender.get(senderKey)
    if (!keys) {
      keys = new Map()
      this.#bySender.set(senderKey, keys)
    }
    let sequence = keys.get(nonce >> 64n)
    if (!sequence) {
      sequence = new Map()
      keys.set(nonce >> 64n, sequence)
    }
    sequence.set(nonce, entry.userOpHash)
    return replaced
  }

  remove(userOpHash: Hex): MempoolEntry | undefined {
    const entry = this.#byHash.get(userOpHash)
    if (!entry) return undefined
    this.#byHash.delete(userOpHash)
    const senderKey = entry.userOperation.sender.toLowerCase()
    const keys = this.#bySender.get(senderKey)
    const sequence = keys?.get(entry.userOperation.nonce >> 64n)
    sequence?.delete(entry.userOperation.nonce)
    if (sequence && sequence.size === 0) keys?.delete(entry.userOperation.nonce >> 64n)
    if (keys && keys.size === 0) this.#bySender.delete(senderKey)
    return entry
  }

  clear(): void {
    this.#byHash.clear()
    this.#bySender.clear()
  }

  /** Every entry, oldest first. */
  entries(): MempoolEntry[] {
    return [...this.#byHash.values()].sort((a, b) => a.addedAt - b.addedAt)
  }

  /**
   * The next bundle: pending operations, each sender's nonce sequence in order and without gaps (a sequence
   * stops at the first operation that is already being bundled, or whose validation touched the storage of another
   * pending operation's sender: STO-041, it stays in the mempool), until `maxOperations` or `maxGas`.
   */
  selectForBundle({ maxOperations, maxGas }: { maxOperations: number; maxGas: bigint }): MempoolEntry[] {
    const sequences: { oldest: number; entries: MempoolEntry[] }[] = []
    for (const keys of this.#bySender.values()) {
      for (const sequence of keys.values()) {
        const ordered = [...sequence.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
        const entries: MempoolEntry[] = []
        let previous: bigint | undefined
        for (const nonce of ordered) {
          const entry = this.#byHash.get(sequence.get(nonce) as Hex)
          if (entry?.state !== 'pending') break
          if (previous !== undefined && nonce !== previous + 1n) break
          if (this.#touchesAnotherSender(entry)) break
          entries.push(entry)
          previous = nonce
        }
        if (entries.length > 0)
          sequences.push({ oldest: Math.min(...entries.map((e) => e.addedAt)), entries })
      }
    }
    sequences.sort((a, b) => a.oldest - b.oldest)
    const bundle: MempoolEntry[] = []
    let gas = 0n
    for (const { entries } of sequences) {
      for (const entry of entries) {
        const needed = entry.bundleGas
        if (bundle.length >= maxOperations || (bundle.length > 0 && gas + needed > maxGas)) return bundle
        bundle.push(entry)
        gas += needed
      }
    }
    return bundle
  }

  #touchesAnotherSender(entry: MempoolEntry): boolean {
    const own = entry.userOperation.sender.toLowerCase()
    return entry.storageAddresses.some((address) => {
      const key = address.toLowerCase()
      return key !== own && this.#bySender.has(key)
    })
  }
}

function usesEntity(entry: MempoolEntry, key: string): boolean {
  return (
    entry.userOperation.sender.toLowerCase() === key ||
    entry.factory?.toLowerCase() === key ||
    entry.paymaster?.toLowerCase() === key
  )
}
