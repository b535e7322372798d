import type { CallFrame } from './callFrame'

/** Balance given to a sender without paymaster during estimation, so a missing prefund does not fail it. */
export const ESTIMATION_SENDER_BALANCE = 1n << 100n

/** Headroom on measured gas: verification 10 %, execution 5 % (63/64 rule across a few call levels). */
export const VERIFICATION_MARGIN_PERCENT = 10n
/**
 * At least this much verification headroom: an estimate runs with the account's stub signature, and a real
 * signature can take a dearer path (Nexus's K1 validator needs 6.6k more with the signature that matches; accounts
 * may skip the precompile for a malformed stub). Two ECDSA recoveries and their memory fit.
 */
export const VERIFICATION_MARGIN_MIN = 10_000n
export const CALL_MARGIN_PERCENT = 5n
export const CALL_MARGIN_MIN = 1_000n
/** Gas a value-carrying call needs at its peak beyond what the frame nets (the stipend it gets back). */
export const CALL_STIPEND = 2_300n

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
