import type { BlockRange } from './types'

const ADDRESS_MASK = (1n << 160n) - 1n
const UINT48_MASK = (1n << 48n) - 1n

/** A validationData word: the signature verdict (or aggregator) and the time range (validUntil 0 = no expiry). */
export function parseValidationData(data: bigint): {
  aggregator: bigint
  validAfter: number
  validUntil: number
} {
  return {
    aggregator: data & ADDRESS_MASK,
    validUntil: Number((data >> 160n) & UINT48_MASK),
    validAfter: Number(data >> 208n),
  }
}

/** v0.9's `VALIDITY_BLOCK_RANGE_FLAG`: validAfter and validUntil both above it are block numbers. */
const VALIDITY_BLOCK_RANGE_FLAG = 0x8000_0000_0000

/** Reading of validationData windows: v0.9 reads block ranges (`blockRanges`), older versions time only. */
export type ValidityOptions = { blockRanges?: boolean }

/** An entity's window as a block range where v0.9 reads one, else null. */
export function readBlockRange(
  window: { validAfter: number; validUntil: number },
  { blockRanges = false }: ValidityOptions,
): BlockRange | null {
  if (
    !blockRanges ||
    window.validAfter <= VALIDITY_BLOCK_RANGE_FLAG ||
    window.validUntil <= VALIDITY_BLOCK_RANGE_FLAG
  )
    return null
  return {
    validAfterBlock: window.validAfter - VALIDITY_BLOCK_RANGE_FLAG,
    validUntilBlock: window.validUntil - VALIDITY_BLOCK_RANGE_FLAG,
  }
}

/**
 * The validAfter and validUntil fields that name a block range (v0.9): the blocks with the top bit set. The EntryPoint
 * reads a range only when both are above the bare flag, so `validAfterBlock` must be 1 or more (0 would read as a time
 * window that never opens).
 */
export function encodeBlockRange(range: BlockRange): { validAfter: number; validUntil: number } {
  if (range.validAfterBlock < 1)
    throw new RangeError(`a block window starts after block 1 at the earliest, not ${range.validAfterBlock}`)
  return {
    validAfter: VALIDITY_BLOCK_RANGE_FLAG + range.validAfterBlock,
    validUntil: VALIDITY_BLOCK_RANGE_FLAG + range.validUntilBlock,
  }
}

/** A validationData word read as the version reads it: its verdict, its time window, or (v0.9) its block range. */
export function readValidationData(
  data: bigint,
  options: ValidityOptions = {},
): ReturnType<typeof parseValidationData> & { blockRange: BlockRange | null } {
  const parsed = parseValidationData(data)
  return { ...parsed, blockRange: readBlockRange(parsed, options) }
}
