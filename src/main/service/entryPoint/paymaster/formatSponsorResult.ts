import { numberToHex } from 'viem'
import type {
  HexSponsorResult,
  PackedPaymasterFields,
  SponsorResult,
  SponsorResultAnswer,
} from './sponsorableOperation'

/** Spec 2.6's sponsor result as Biconomy documents it for v0.6: preVerificationGas decimal, the limits numbers. */
export function formatDecimalSponsorResult(result: SponsorResult): SponsorResultAnswer {
  return {
    mode: result.mode,
    MODE: result.mode,
    paymasterAndData: result.paymasterAndData,
    preVerificationGas: result.preVerificationGas.toString(),
    verificationGasLimit: Number(result.verificationGasLimit),
    callGasLimit: Number(result.callGasLimit),
  }
}

/** The v0.7+ sponsor result: ERC-7769's `paymaster`, `paymasterData` and every limit 0x-hex (none when not sponsored). */
export function formatErc7769SponsorResult(result: SponsorResult): SponsorResultAnswer {
  return { mode: result.mode, MODE: result.mode, ...formatHexSponsorResult(result) }
}

/** ERC-7769's paymaster fields, the paymaster's two limits as 0x-hex (v0.7+ answers and stub data). */
export function formatPaymasterFields(fields: PackedPaymasterFields) {
  return {
    paymaster: fields.paymaster,
    paymasterData: fields.paymasterData,
    paymasterVerificationGasLimit: numberToHex(fields.paymasterVerificationGasLimit),
    paymasterPostOpGasLimit: numberToHex(fields.paymasterPostOpGasLimit),
    ...(fields.paymasterSignature ? { paymasterSignature: fields.paymasterSignature } : {}),
  }
}

/** The sponsor result with every quantity 0x-hex: the paymaster fields when there are any, and the three limits. */
export function formatHexSponsorResult(result: SponsorResult): HexSponsorResult {
  return {
    ...(result.paymasterFields ? formatPaymasterFields(result.paymasterFields) : {}),
    preVerificationGas: numberToHex(result.preVerificationGas),
    verificationGasLimit: numberToHex(result.verificationGasLimit),
    callGasLimit: numberToHex(result.callGasLimit),
  }
}
