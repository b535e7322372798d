import {
  type Address,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  getAddress,
  type Hash,
  type Hex,
  type LocalAccount,
  size,
  slice,
} from 'viem'
import { hashForPaymaster, type SignableUserOperation } from './hashForPaymaster'

/** Byte length of a signed verifying-paymaster paymasterAndData: 20 + 4 words + 65-byte signature padded. */
export const VERIFYING_PAYMASTER_AND_DATA_SIZE = 276

const dataParameters = [
  { type: 'address', name: 'paymasterId' },
  { type: 'uint48', name: 'validUntil' },
  { type: 'uint48', name: 'validAfter' },
  { type: 'bytes', name: 'signature' },
] as const

export type VerifyingPaymasterFields = {
  paymaster: Address
  paymasterId: Address
  /** Unix seconds; 0 = no expiry. */
  validUntil: number
  validAfter: number
}

/**
 * VerifyingSingletonPaymaster v1.1.0 `getHash(op, paymasterId, validUntil, validAfter)` computed off-chain:
 * keccak256(abi.encode(sender, nonce, keccak256(initCode), keccak256(callData), callGasLimit,
 * verificationGasLimit, preVerificationGas, maxFeePerGas, maxPriorityFeePerGas, chainId, paymaster,
 * paymasterId, validUntil, validAfter)).
 */
export function getVerifyingPaymasterHash(
  op: SignableUserOperation,
  fields: VerifyingPaymasterFields & { chainId: number },
): Hash {
  return hashForPaymaster(op, fields.chainId, fields.paymaster, {
    types: [{ type: 'address' }, { type: 'uint48' }, { type: 'uint48' }],
    values: [fields.paymasterId, fields.validUntil, fields.validAfter],
  })
}

/** paymaster(20) ‖ abi.encode(address paymasterId, uint48 validUntil, uint48 validAfter, bytes signature). */
export function encodeVerifyingPaymasterAndData(fields: VerifyingPaymasterFields & { signature: Hex }): Hex {
  return concat([
    fields.paymaster,
    encodeAbiParameters(dataParameters, [
      fields.paymasterId,
      fields.validUntil,
      fields.validAfter,
      fields.signature,
    ]),
  ])
}

export function decodeVerifyingPaymasterAndData(
  paymasterAndData: Hex,
): VerifyingPaymasterFields & { signature: Hex } {
  const [paymasterId, validUntil, validAfter, signature] = decodeAbiParameters(
    dataParameters,
    slice(paymasterAndData, 20),
  )
  return {
    paymaster: getAddress(slice(paymasterAndData, 0, 20)),
    paymasterId,
    validUntil,
    validAfter,
    signature,
  }
}

/** Signs the op for the verifying paymaster (EIP-191 personal sign over getHash) and encodes paymasterAndData. */
export async function signVerifyingPaymasterAndData(
  op: SignableUserOperation,
  fields: VerifyingPaymasterFields & { chainId: number; signer: LocalAccount },
): Promise<Hex> {
  const hash = getVerifyingPaymasterHash(op, fields)
  const signature = await fields.signer.signMessage({ message: { raw: hash } })
  const paymasterAndData = encodeVerifyingPaymasterAndData({ ...fields, signature })
  if (size(paymasterAndData) !== VERIFYING_PAYMASTER_AND_DATA_SIZE) {
    throw new Error(`verifying paymasterAndData has ${size(paymasterAndData)} bytes`)
  }
  return paymasterAndData
}
