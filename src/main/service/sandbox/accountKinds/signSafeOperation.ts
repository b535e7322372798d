import { encodePacked, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import type { Chain } from '../../chain/types'
import type { UserOperationV06, UserOperationV07 } from '../../entryPoint'
import { entryPointV06, entryPointV07, packUserOperation } from '../../entryPoint'

const VALIDITY_FIELDS = [
  { type: 'bytes', name: 'paymasterAndData' },
  { type: 'uint48', name: 'validAfter' },
  { type: 'uint48', name: 'validUntil' },
  { type: 'address', name: 'entryPoint' },
] as const

/** Safe4337Module v0.3.0's `SafeOp` (EntryPoint v0.7): the packed operation's fields, its validity window. */
const SAFE_OPERATION_TYPES_V07 = {
  SafeOp: [
    { type: 'address', name: 'safe' },
    { type: 'uint256', name: 'nonce' },
    { type: 'bytes', name: 'initCode' },
    { type: 'bytes', name: 'callData' },
    { type: 'uint128', name: 'verificationGasLimit' },
    { type: 'uint128', name: 'callGasLimit' },
    { type: 'uint256', name: 'preVerificationGas' },
    { type: 'uint128', name: 'maxPriorityFeePerGas' },
    { type: 'uint128', name: 'maxFeePerGas' },
    ...VALIDITY_FIELDS,
  ],
} as const

/** Safe4337Module v0.2.0's `SafeOp` (EntryPoint v0.6): the v0.6 operation's fields in their order, uint256 gas. */
const SAFE_OPERATION_TYPES_V06 = {
  SafeOp: [
    { type: 'address', name: 'safe' },
    { type: 'uint256', name: 'nonce' },
    { type: 'bytes', name: 'initCode' },
    { type: 'bytes', name: 'callData' },
    { type: 'uint256', name: 'callGasLimit' },
    { type: 'uint256', name: 'verificationGasLimit' },
    { type: 'uint256', name: 'preVerificationGas' },
    { type: 'uint256', name: 'maxFeePerGas' },
    { type: 'uint256', name: 'maxPriorityFeePerGas' },
    ...VALIDITY_FIELDS,
  ],
} as const

/** No validity window (validUntil 0 is "no expiry" for the EntryPoint), as the SDKs sign by default. */
const VALID_AFTER = 0
const VALID_UNTIL = 0

/** The module's signature layout: validAfter (6 bytes) ‖ validUntil (6 bytes) ‖ the Safe owners' signatures. */
export const toSafeModuleSignature = (ownerSignatures: Hex): Hex =>
  encodePacked(['uint48', 'uint48', 'bytes'], [VALID_AFTER, VALID_UNTIL, ownerSignatures])

/**
 * The owner's EIP-712 signature of the v0.7 `SafeOp` (domain: the chain and the Safe4337Module v0.3.0), wrapped
 * for the module. A single owner's ECDSA signature (v 27/28) is the whole of Safe's `checkSignatures` input for
 * threshold 1.
 */
export async function signSafeOperationV07(
  chain: Chain,
  ownerPrivateKey: Hex,
  op: UserOperationV07,
): Promise<Hex> {
  const packed = packUserOperation(op)
  const signature = await privateKeyToAccount(ownerPrivateKey).signTypedData({
    domain: { chainId: chain.chainId, verifyingContract: getZooAddress('safe4337ModuleV07') },
    types: SAFE_OPERATION_TYPES_V07,
    primaryType: 'SafeOp',
    message: {
      safe: op.sender,
      nonce: op.nonce,
      initCode: packed.initCode,
      callData: op.callData,
      verificationGasLimit: op.verificationGasLimit,
      callGasLimit: op.callGasLimit,
      preVerificationGas: op.preVerificationGas,
      maxPriorityFeePerGas: op.maxPriorityFeePerGas,
      maxFeePerGas: op.maxFeePerGas,
      paymasterAndData: packed.paymasterAndData,
      validAfter: VALID_AFTER,
      validUntil: VALID_UNTIL,
      entryPoint: entryPointV07.address,
    },
  })
  return toSafeModuleSignature(signature)
}

/** The same for a v0.6 operation: the v0.6 `SafeOp` signed for the Safe4337Module v0.2.0. */
export async function signSafeOperationV06(
  chain: Chain,
  ownerPrivateKey: Hex,
  op: UserOperationV06,
): Promise<Hex> {
  const signature = await privateKeyToAccount(ownerPrivateKey).signTypedData({
    domain: { chainId: chain.chainId, verifyingContract: getZooAddress('safe4337ModuleV06') },
    types: SAFE_OPERATION_TYPES_V06,
    primaryType: 'SafeOp',
    message: {
      safe: op.sender,
      nonce: op.nonce,
      initCode: op.initCode,
      callData: op.callData,
      callGasLimit: op.callGasLimit,
      verificationGasLimit: op.verificationGasLimit,
      preVerificationGas: op.preVerificationGas,
      maxFeePerGas: op.maxFeePerGas,
      maxPriorityFeePerGas: op.maxPriorityFeePerGas,
      paymasterAndData: op.paymasterAndData,
      validAfter: VALID_AFTER,
      validUntil: VALID_UNTIL,
      entryPoint: entryPointV06.address,
    },
  })
  return toSafeModuleSignature(signature)
}
