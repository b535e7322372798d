import jsSha3 from 'js-sha3'
import type { Hex } from 'viem'

/**
 * keccak256 of 0x-hex data, as 0x-hex. The same function as viem's keccak256, computed with js-sha3, which runs
 * 4–5 times faster than @noble/hashes on the hashes the bundler makes per operation (the userOpHash of every
 * operation, the signing hash of every bundle transaction).
 */
export function keccak256Hex(data: Hex): Hex {
  return keccak256Bytes(Buffer.from(data.slice(2), 'hex'))
}

/** keccak256 of bytes, as 0x-hex (a transaction serialized into a buffer is hashed without a hex round trip). */
export function keccak256Bytes(data: Uint8Array): Hex {
  return `0x${jsSha3.keccak256(data)}`
}

/** keccak256 of hex data given without 0x, as hex without 0x (for building ABI words). */
export function keccak256Words(hex: string): string {
  return jsSha3.keccak256(Buffer.from(hex, 'hex'))
}
