import type { Address, Hex } from 'viem'

/**
 * ABI words written out by hand (hex without 0x), for the calldata every version's EntryPoint calls carry: the
 * byte-for-byte result of viem's encoder at a fraction of its CPU.
 */

const ZERO_WORD = '0'.repeat(64)

/** `bytes` in ABI form (hex without 0x): its length word, then the data padded right to whole words. */
export function encodeBytes(data: Hex): string {
  const body = data.slice(2).toLowerCase()
  if (body.length % 2 !== 0) throw new Error(`odd-length hex ${data.slice(0, 20)}…`)
  const length = body.length / 2
  const padding = (64 - (body.length % 64)) % 64
  return word(length) + body + '0'.repeat(padding)
}

/** A small non-negative number (an offset or a length) as one ABI word. */
export function word(value: number): string {
  return value.toString(16).padStart(64, '0')
}

/** A uint256 as one ABI word (hex without 0x). */
export function uintWord(value: bigint): string {
  if (value < 0n || value >= 1n << 256n) throw new Error(`uint256 out of range: ${value}`)
  return value === 0n ? ZERO_WORD : value.toString(16).padStart(64, '0')
}

/** An address as one ABI word, left-padded. */
export function addressWord(address: Address): string {
  if (address.length !== 42) throw new Error(`not an address: ${address}`)
  return `000000000000000000000000${address.slice(2).toLowerCase()}`
}
