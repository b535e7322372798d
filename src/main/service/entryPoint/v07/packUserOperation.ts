import { type Address, getAddress, type Hex } from 'viem'
import { appendPaymasterSignature, splitPaymasterSignature } from '../v09/paymasterSignature'
import { EIP7702_FACTORY_MARKER, type UserOperationV07 } from './userOperation'

/** The on-chain `PackedUserOperation` of EntryPoint v0.7, v0.8 and v0.9. */
export type PackedUserOperation = {
  sender: Address
  nonce: bigint
  initCode: Hex
  callData: Hex
  /** verificationGasLimit (16 bytes) ‖ callGasLimit (16 bytes). */
  accountGasLimits: Hex
  preVerificationGas: bigint
  /** maxPriorityFeePerGas (16 bytes) ‖ maxFeePerGas (16 bytes). */
  gasFees: Hex
  paymasterAndData: Hex
  signature: Hex
}

const UINT128_MAX = (1n << 128n) - 1n

function uint128(value: bigint): string {
  if (value < 0n || value > UINT128_MAX) throw new Error(`uint128 out of range: ${value}`)
  return value.toString(16).padStart(32, '0')
}

/** Two uint128 packed into one bytes32 (high ‖ low). */
export function packUint128Pair(high: bigint, low: bigint): Hex {
  return `0x${uint128(high)}${uint128(low)}`
}

/** initCode = factory ‖ factoryData (the `0x7702` marker is kept as its 20-byte form), or empty. */
export function packInitCode(op: Pick<UserOperationV07, 'factory' | 'factoryData'>): Hex {
  if (!op.factory) return '0x'
  return `${op.factory.toLowerCase()}${op.factoryData.slice(2)}` as Hex
}

/**
 * paymasterAndData = paymaster ‖ verification gas (16) ‖ postOp gas (16) ‖ paymasterData, or empty; v0.9's
 * `paymasterSignature`, when there is one, after it (signature ‖ its 2-byte length ‖ magic).
 */
export function packPaymasterAndData(
  op: Pick<
    UserOperationV07,
    | 'paymaster'
    | 'paymasterVerificationGasLimit'
    | 'paymasterPostOpGasLimit'
    | 'paymasterData'
    | 'paymasterSignature'
  >,
): Hex {
  if (!op.paymaster) return '0x'
  const packed = `${op.paymaster.toLowerCase()}${uint128(op.paymasterVerificationGasLimit)}${uint128(
    op.paymasterPostOpGasLimit,
  )}${op.paymasterData.slice(2)}` as Hex
  return appendPaymasterSignature(packed, op.paymasterSignature)
}

export function packUserOperation(op: UserOperationV07): PackedUserOperation {
  return {
    sender: op.sender,
    nonce: op.nonce,
    initCode: packInitCode(op),
    callData: op.callData,
    accountGasLimits: packUint128Pair(op.verificationGasLimit, op.callGasLimit),
    preVerificationGas: op.preVerificationGas,
    gasFees: packUint128Pair(op.maxPriorityFeePerGas, op.maxFeePerGas),
    paymasterAndData: packPaymasterAndData(op),
    signature: op.signature,
  }
}

/**
 * The RPC form of a packed operation (as read back from a handleOps transaction). `paymasterSignature` (v0.9): a
 * signature packed at the end of paymasterAndData is read back as its own field, as the EntryPoint reads it.
 */
export function unpackUserOperation(
  packed: PackedUserOperation,
  { paymasterSignature = false }: { paymasterSignature?: boolean } = {},
): UserOperationV07 {
  const limits = packed.accountGasLimits.slice(2).padStart(64, '0')
  const fees = packed.gasFees.slice(2).padStart(64, '0')
  const hasFactory = packed.initCode.length >= 42
  const factory = hasFactory ? getAddress(packed.initCode.slice(0, 42)) : null
  const split = paymasterSignature ? splitPaymasterSignature(packed.paymasterAndData) : null
  const pmd = split?.signature ? split.data : packed.paymasterAndData
  const hasPaymaster = pmd.length >= 42
  return {
    sender: getAddress(packed.sender),
    nonce: packed.nonce,
    factory: factory && BigInt(factory) === BigInt(EIP7702_FACTORY_MARKER) ? EIP7702_FACTORY_MARKER : factory,
    factoryData: hasFactory ? (`0x${packed.initCode.slice(42)}` as Hex) : '0x',
    callData: packed.callData,
    verificationGasLimit: BigInt(`0x${limits.slice(0, 32)}`),
    callGasLimit: BigInt(`0x${limits.slice(32)}`),
    preVerificationGas: packed.preVerificationGas,
    maxPriorityFeePerGas: BigInt(`0x${fees.slice(0, 32)}`),
    maxFeePerGas: BigInt(`0x${fees.slice(32)}`),
    paymaster: hasPaymaster ? getAddress(pmd.slice(0, 42)) : null,
    paymasterVerificationGasLimit: hasPaymaster && pmd.length >= 74 ? BigInt(`0x${pmd.slice(42, 74)}`) : 0n,
    paymasterPostOpGasLimit: hasPaymaster && pmd.length >= 106 ? BigInt(`0x${pmd.slice(74, 106)}`) : 0n,
    paymasterData: hasPaymaster ? (`0x${pmd.slice(106)}` as Hex) : '0x',
    signature: packed.signature,
    eip7702Auth: null,
    ...(split?.signature && hasPaymaster ? { paymasterSignature: split.signature } : {}),
  }
}
