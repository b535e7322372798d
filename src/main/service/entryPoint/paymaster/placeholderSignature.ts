import type { Hex } from 'viem'

/** A 65-byte signature of non-zero bytes: sizes a paymaster's data for preVerificationGas before it is signed. */
export const PLACEHOLDER_SIGNATURE = `0x${'ff'.repeat(65)}` as Hex
