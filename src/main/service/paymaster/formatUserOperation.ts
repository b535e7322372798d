import { numberToHex } from 'viem'
import type { PartialUserOperation, SponsorResult } from './types'

/** The op in wire form (quantities as 0x-hex), as webhooks receive it. */
export function formatUserOperation(op: PartialUserOperation): Record<string, string> {
  const out: Record<string, string> = {
    sender: op.sender,
    nonce: numberToHex(op.nonce),
    initCode: op.initCode,
    callData: op.callData,
  }
  for (const key of [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ] as const) {
    const value = op[key]
    if (value !== undefined) out[key] = numberToHex(value)
  }
  if (op.paymasterAndData !== undefined) out.paymasterAndData = op.paymasterAndData
  if (op.signature !== undefined) out.signature = op.signature
  return out
}

/**
 * The sponsor result of spec 2.6 in the mixed types Biconomy documents: preVerificationGas a decimal string,
 * the two limits numbers; `mode` (what the SDK reads) and `MODE` (what the spec prints).
 */
export function formatSponsorResult(result: SponsorResult) {
  return {
    mode: result.mode,
    MODE: result.mode,
    paymasterAndData: result.paymasterAndData,
    preVerificationGas: result.preVerificationGas.toString(),
    verificationGasLimit: Number(result.verificationGasLimit),
    callGasLimit: Number(result.callGasLimit),
  }
}
