import { z } from 'zod'

/** The largest uint256: every quantity the chain takes (nonce, gas, fee, wei, token amount) fits in one. */
export const MAX_UINT256 = (1n << 256n) - 1n
/** The largest uint64 (an account nonce, a chain id). */
export const MAX_UINT64 = (1n << 64n) - 1n

/**
 * Longest text read as a quantity: uint256 takes 64 hex digits or 78 decimal ones; a few leading zeros more are
 * tolerated. Longer text is refused before BigInt reads it (a megabyte of digits costs seconds of CPU).
 */
const MAX_QUANTITY_LENGTH = 80

export type ReadQuantityReturnType = { ok: true; value: bigint } | { ok: false; problem: 'format' | 'range' }

/**
 * Reads a quantity as clients send it: 0x-hex (`"0x"` alone is zero, as some clients send it), a decimal string
 * or a non-negative safe-integer JSON number. Anything above `max` (uint256 unless given) is out of range.
 */
export function readQuantity(value: unknown, max: bigint = MAX_UINT256): ReadQuantityReturnType {
  let n: bigint
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) return { ok: false, problem: 'format' }
    n = BigInt(value)
  } else if (typeof value === 'string') {
    if (value.length > MAX_QUANTITY_LENGTH)
      return { ok: false, problem: /^(0x[0-9a-fA-F]*|\d*)$/.test(value) ? 'range' : 'format' }
    if (value === '0x') n = 0n
    else if (/^0x[0-9a-fA-F]+$/.test(value) || /^\d+$/.test(value)) n = BigInt(value)
    else return { ok: false, problem: 'format' }
  } else {
    return { ok: false, problem: 'format' }
  }
  return n > max ? { ok: false, problem: 'range' } : { ok: true, value: n }
}

export type QuantitySchemaOptions = {
  /** Width of the integer (default 256): the largest accepted value is 2^bits - 1. */
  bits?: 64 | 256
  /** A REST field name: messages then name it (`amountWei must be …`), in the dashboard API's wording. */
  field?: string
}

/**
 * The one quantity schema of every edge (JSON-RPC params, REST bodies, console routes): a bounded non-negative
 * integer (uint256 unless `bits` says otherwise) as 0x-hex, decimal string or safe JSON integer, read as a bigint.
 */
export function quantitySchema({ bits = 256, field }: QuantitySchemaOptions = {}) {
  const max = bits === 64 ? MAX_UINT64 : MAX_UINT256
  const format = field
    ? `${field} must be a non-negative integer (0x-hex or decimal)`
    : 'expected a non-negative integer (0x-hex or decimal)'
  const range = field
    ? `${field} must be at most 2^${bits} - 1 (a uint${bits})`
    : `value does not fit in uint${bits}`
  return z
    .union([z.string(), z.number()], { error: format })
    .meta({ description: `A uint${bits}: 0x-hex, decimal string or JSON integer` })
    .transform((value, ctx): bigint => {
      const read = readQuantity(value, max)
      if (read.ok) return read.value
      ctx.addIssue({ code: 'custom', message: read.problem === 'range' ? range : format })
      return z.NEVER
    })
}

/** A uint256 quantity (0x-hex, decimal string or safe JSON integer) as a bigint. */
export const QuantitySchema = quantitySchema()
