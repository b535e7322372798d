import type { Address } from 'viem'
import { keccak256Bytes } from './keccak256'

/**
 * The EIP-55 checksummed form of a well-formed address (0x and 40 hex digits, any case): what viem's `getAddress`
 * returns, with the hash taken by chain/keccak256's js-sha3 (4–5 times faster than @noble/hashes). For addresses read off calldata
 * or logs, which are always well formed and often new (viem's cache only helps on repeats); validate anything
 * else with viem first.
 */
export function checksumAddress(address: string): Address {
  const lower = address.slice(2).toLowerCase()
  // keccak256 of the lower-case hex digits as ASCII text; its nibble i decides the case of digit i.
  const hash = keccak256Bytes(Buffer.from(lower, 'latin1')).slice(2)
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const c = lower[i] as string
    // A letter is upper case where the hash's nibble at its position is 8 or more ('8'-'9', 'a'-'f': above '7').
    out += c > '9' && hash.charCodeAt(i) > 55 ? c.toUpperCase() : c
  }
  return out as Address
}
