import { numberToHex } from 'viem'
import type { EntryPointVersion } from '../entryPoint'
import type { PackedPaymasterFields, PartialUserOperation, SponsorResult } from './types'

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
 * the two limits numbers; `mode` (what the SDK reads) and `MODE` (what the spec prints). For a v0.7/v0.8 operation,
 * ERC-7769's fields instead: `paymaster`, `paymasterData` and every limit as 0x-hex (no paymaster fields when
 * not sponsored).
 */
export function formatSponsorResult(result: SponsorResult, entryPointVersion: EntryPointVersion) {
  if (entryPointVersion !== '0.6')
    return { mode: result.mode, MODE: result.mode, ...formatHexSponsorResult(result) }
  return {
    mode: result.mode,
    MODE: result.mode,
    paymasterAndData: result.paymasterAndData,
    preVerificationGas: result.preVerificationGas.toString(),
    verificationGasLimit: Number(result.verificationGasLimit),
    callGasLimit: Number(result.callGasLimit),
  }
}

/** ERC-7769's paymaster fields, the paymaster's two limits as 0x-hex (v0.7+ answers and stub data). */
export function formatPaymasterFields(fields: PackedPaymasterFields) {
  return {
    paymaster: fields.paymaster,
    paymasterData: fields.paymasterData,
    paymasterVerificationGasLimit: numberToHex(fields.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: numberToHex(fields.paymasterPostOpGasLimit),
  }
}

/** The sponsor result with every quantity 0x-hex: the paymaster fields when there are any, and the three limits. */
export function formatHexSponsorResult(result: SponsorResult) {
  return {
    ...(result.paymasterFields ? formatPaymasterFields(result.paymasterFields) : {}),
    preVerificationGas: numberToHex(result.preVerificationGas),
    verificationGasLimit: numberToHex(result.verificationGasLimit),
    callGasLimit: numberToHex(result.callGasLimit),
  }
}
