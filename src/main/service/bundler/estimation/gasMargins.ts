import type { CallFrame } from '../callFrame'

/** Balance given to a sender without paymaster during estimation, so a missing prefund does not fail it. */
export const ESTIMATION_SENDER_BALANCE = 1n << 100n

/** `value` plus `percent` of it (rounded up), at least `minimum`. */
export function withMargin(value: bigint, percent: bigint, minimum: bigint): bigint {
  const margin = (value * percent + 99n) / 100n
  return value + maxBigInt(margin, minimum)
}

/** The frame, or a frame below it, failed for lack of gas. */
export function ranOutOfGas(frame: CallFrame): boolean {
  if (frame.error && /out of gas/i.test(frame.error)) return true
  return (frame.calls ?? []).some(ranOutOfGas)
}

export function maxBigInt(a: bigint, b: bigint): bigint {
  return a > b ? a : b
}

export function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b
}
