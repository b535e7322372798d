import { type Address, concat, type Hex, hexToBigInt, keccak256, numberToHex, pad } from 'viem'

/** Slots after a keccak-derived base that still count as associated (ERC-7562: "+ n, n up to 128"). */
export const ASSOCIATED_SLOT_RANGE = 128n
/** Mapping slots probed for an address the memory has not seen: `mapping(address => …)` declared in slots 0..15. */
const PROBED_MAPPING_SLOTS = 16
/** Bases remembered before the memory starts over (about 200 bytes each). */
const MAX_BASES = 100_000

/**
 * Keccak preimages that make storage slots "associated" with an address (ERC-7562: keccak(address ‖ x) + n).
 * The JavaScript tracer reads them from memory; native traces cannot, so preimages seen once are remembered
 * here, keyed by their hash. Facts of arithmetic, not of chain state: a remembered preimage never goes stale.
 * For an address first met, the mapping slots of plain Solidity layouts are probed as well.
 */
export class KeccakPreimages {
  private readonly preimageOfBase = new Map<bigint, Hex>()
  private readonly probedAddresses = new Set<string>()

  /** Remembers preimages (32 to 128 bytes) seen by a trace. */
  learn(preimages: Hex[]): void {
    for (const preimage of preimages) {
      if (preimage.length < 66 || preimage.length > 258) continue
      this.remember(hexToBigInt(keccak256(preimage)), preimage.toLowerCase() as Hex)
    }
  }

  /**
   * The remembered preimages whose hash lies at most 127 below one of the slots, after probing the mapping
   * slots of the given addresses.
   */
  preimagesFor(slots: Iterable<Hex>, addresses: Address[]): Hex[] {
    for (const address of addresses) this.probe(address)
    const found = new Set<Hex>()
    for (const slot of slots) {
      const value = hexToBigInt(slot)
      for (let n = 0n; n < ASSOCIATED_SLOT_RANGE && n <= value; n++) {
        const preimage = this.preimageOfBase.get(value - n)
        if (preimage) found.add(preimage)
      }
    }
    return [...found]
  }

  /**
   * The preimages of the hashes that lie at most 127 below one of the slots (the bases that can make a slot
   * associated), after probing the mapping slots of the given addresses; undefined when one of them is not known.
   */
  preimagesOfBases(hashes: Iterable<Hex>, slots: Iterable<Hex>, addresses: Address[]): Hex[] | undefined {
    for (const address of addresses) this.probe(address)
    const values = [...slots].map((slot) => hexToBigInt(slot))
    const found = new Set<Hex>()
    for (const hash of hashes) {
      const base = hexToBigInt(hash)
      if (!values.some((value) => value >= base && value < base + ASSOCIATED_SLOT_RANGE)) continue
      const preimage = this.preimageOfBase.get(base)
      if (!preimage) return undefined
      found.add(preimage)
    }
    return [...found]
  }

  get size(): number {
    return this.preimageOfBase.size
  }

  private probe(address: Address): void {
    const key = address.toLowerCase()
    if (this.probedAddresses.has(key)) return
    this.probedAddresses.add(key)
    const padded = pad(key as Hex)
    for (let slot = 0; slot < PROBED_MAPPING_SLOTS; slot++) {
      const preimage = concat([padded, numberToHex(slot, { size: 32 })])
      this.remember(hexToBigInt(keccak256(preimage)), preimage)
    }
  }

  private remember(base: bigint, preimage: Hex): void {
    if (this.preimageOfBase.size >= MAX_BASES) {
      this.preimageOfBase.clear()
      this.probedAddresses.clear()
    }
    this.preimageOfBase.set(base, preimage)
  }
}
