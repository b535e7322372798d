import { getAddress, type Hex } from 'viem'
import { z } from 'zod'

/** 0x-prefixed hex bytes (any even length), as they came. */
export const BytesSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
  .transform((v) => v as Hex)

/** A 20-byte address, checksummed. */
export const AddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte address')
  .transform((v) => getAddress(v))

const INVALID_USER_OP_HASH = 'Missing/invalid userOpHash: expected a 0x-prefixed 32-byte hash'

/**
 * A userOpHash param, lowercase. Anything else, missing or empty included, is "Missing/invalid userOpHash", the words
 * of the reference bundler that the ERC-4337 test suite looks for.
 */
export const UserOpHashSchema = z
  .string({ error: INVALID_USER_OP_HASH })
  .regex(/^0x[0-9a-fA-F]{64}$/, INVALID_USER_OP_HASH)
  .transform((v) => v.toLowerCase() as Hex)

/** A quantity in the wire form of JSON-RPC (0x-hex, no leading zeros). */
export function toHexQuantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}
