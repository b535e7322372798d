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

/** A 32-byte hash, lowercase. */
export const HashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 0x-prefixed 32-byte hash')
  .transform((v) => v.toLowerCase() as Hex)

/** A quantity in the wire form of JSON-RPC (0x-hex, no leading zeros). */
export function toHexQuantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}
