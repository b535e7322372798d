import type { Hex } from 'viem'

/** Gas overheads of a handleOps bundle that the EntryPoint cannot measure (eth-infinitism's defaults). */
export const preVerificationGasOverheads = {
  /** Transaction base cost, paid once per bundle. */
  fixed: 21_000,
  /** EntryPoint bookkeeping per UserOperation outside the measured frames. */
  perUserOp: 18_300,
  /** Per 32-byte word of the ABI-encoded UserOperation (memory copies). */
  perUserOpWord: 4,
  zeroByte: 4,
  nonZeroByte: 16,
  /** Bundles are charged as if each UserOperation were alone, so the fixed cost is never under-paid. */
  bundleSize: 1,
} as const

/**
 * Stand-ins for the numeric gas fields, so the result does not depend on values that are still being estimated
 * (or that a client may raise later): each is wider than any realistic value.
 */
export const GAS_FIELD_PLACEHOLDER = 0xffff_ffffn
export const FEE_FIELD_PLACEHOLDER = 0xff_ffff_ffffn
/** A signature is counted as at least this long (an ECDSA signature), whatever the stub sent. */
export const MIN_SIGNATURE_LENGTH = 65

/**
 * Non-zero bytes of the value's length: how preVerificationGas counts the bytes whose values change once signed
 * (the signature; the paymaster's data, whose stub or placeholder is replaced by data signed over the estimate).
 */
export function nonZeroBytesOfLength(value: Hex): Hex {
  return `0x${'ff'.repeat((value.length - 2) / 2)}`
}

/**
 * preVerificationGas of an operation given as `abi.encode(op)` (hex without 0x: the tuple's offset word, then the
 * tuple, as it sits in handleOps' calldata): its calldata cost, the op's offset word in the array head, and the fixed
 * and per-op overheads. Every EntryPoint version's estimate ends here.
 */
export function preVerificationGasOfEncoded(encoded: string): bigint {
  const length = encoded.length / 2
  let callDataCost = 0
  for (let i = 0; i < encoded.length; i += 2) {
    const zero = encoded.charCodeAt(i) === 48 && encoded.charCodeAt(i + 1) === 48 // "00"
    callDataCost += zero ? preVerificationGasOverheads.zeroByte : preVerificationGasOverheads.nonZeroByte
  }
  // The op's offset word in the handleOps array head (32 bytes, almost all zero).
  callDataCost += 31 * preVerificationGasOverheads.zeroByte + preVerificationGasOverheads.nonZeroByte
  const words = Math.ceil(length / 32)
  const total =
    callDataCost +
    preVerificationGasOverheads.fixed / preVerificationGasOverheads.bundleSize +
    preVerificationGasOverheads.perUserOp +
    preVerificationGasOverheads.perUserOpWord * words
  return BigInt(Math.ceil(total))
}
