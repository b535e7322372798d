import type { Hex } from 'viem'
import {
  breakDownPreVerificationGasOfEncoded,
  FEE_FIELD_PLACEHOLDER,
  GAS_FIELD_PLACEHOLDER,
  MIN_SIGNATURE_LENGTH,
  nonZeroBytesOfLength,
  type PreVerificationGasBreakdown,
} from '../estimation/preVerificationGas'
import { encodeUserOperationTuple } from './encodeEntryPointCalls'
import type { UserOperationV06 } from './userOperation'

export type CalculatePreVerificationGasParameters = {
  userOperation: Pick<
    UserOperationV06,
    'sender' | 'nonce' | 'initCode' | 'callData' | 'signature' | 'paymasterAndData'
  >
  /**
   * Count paymasterAndData (true: an estimate for the op as it will be sent). The send-side floor leaves it
   * out, because the Biconomy flow with `calculateGasLimits: false` estimates without paymasterAndData and
   * the paymaster then signs those limits unchanged.
   */
  includePaymasterAndData?: boolean
}

/**
 * preVerificationGas: the calldata cost of the UserOperation inside handleOps plus the fixed and per-op
 * overheads. Deterministic for a given sender, nonce, initCode, callData, signature length and (optionally)
 * paymasterAndData length: the signature (at least 65 bytes) and paymasterAndData are counted as non-zero bytes of
 * their length, and the gas fields as wide placeholders, so an estimate made with a dummy signature and stub
 * paymaster data gives what the signed operation needs, whatever bytes its signatures hold.
 */
export function calculatePreVerificationGas(params: CalculatePreVerificationGasParameters): bigint {
  return breakDownPreVerificationGas(params).total
}

/** calculatePreVerificationGas's figure with its parts. */
export function breakDownPreVerificationGas({
  userOperation,
  includePaymasterAndData = true,
}: CalculatePreVerificationGasParameters): PreVerificationGasBreakdown {
  const signatureLength = Math.max(MIN_SIGNATURE_LENGTH, (userOperation.signature.length - 2) / 2)
  // abi.encode(op): the tuple's offset word, then the tuple.
  const encoded = `${'0'.repeat(62)}20${encodeUserOperationTuple({
    sender: userOperation.sender,
    nonce: userOperation.nonce,
    initCode: userOperation.initCode,
    callData: userOperation.callData,
    callGasLimit: GAS_FIELD_PLACEHOLDER,
    verificationGasLimit: GAS_FIELD_PLACEHOLDER,
    preVerificationGas: GAS_FIELD_PLACEHOLDER,
    maxFeePerGas: FEE_FIELD_PLACEHOLDER,
    maxPriorityFeePerGas: FEE_FIELD_PLACEHOLDER,
    paymasterAndData: includePaymasterAndData ? nonZeroBytesOfLength(userOperation.paymasterAndData) : '0x',
    signature: `0x${'ff'.repeat(signatureLength)}` as Hex,
  })}`
  return breakDownPreVerificationGasOfEncoded(encoded)
}
