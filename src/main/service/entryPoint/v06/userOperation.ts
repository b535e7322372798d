import { getAddress, type Hex } from 'viem'
import { z } from 'zod'
import type { UserOperationV06 } from '../../chain/types'
import { QuantitySchema } from '../../schemas/quantitySchema'

/**
 * A uint256 on the wire: 0x-hex (`"0x0"`, also the bare `"0x"` some clients send for zero), a decimal string
 * (the Biconomy SDK sends decimal strings to the paymaster and hex to the bundler) or a JSON integer: the one
 * bounded quantity schema of every edge (schemas/quantitySchema.ts).
 */
export { QuantitySchema }

export const BytesSchema = z
  .string()
  .regex(/^0x([0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes')
  .transform((v) => v as Hex)

export const AddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 0x-prefixed 20-byte address')
  .transform((v) => getAddress(v))

export const HashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 0x-prefixed 32-byte hash')
  .transform((v) => v.toLowerCase() as Hex)

/** A complete v0.6 UserOperation (eth_sendUserOperation). */
export const UserOperationSchema = z.object({
  sender: AddressSchema,
  nonce: QuantitySchema,
  initCode: BytesSchema,
  callData: BytesSchema,
  callGasLimit: QuantitySchema,
  verificationGasLimit: QuantitySchema,
  preVerificationGas: QuantitySchema,
  maxFeePerGas: QuantitySchema,
  maxPriorityFeePerGas: QuantitySchema,
  paymasterAndData: BytesSchema,
  signature: BytesSchema,
})

/**
 * A partial v0.6 UserOperation (eth_estimateUserOperationGas): gas limits and fees may be left out, as the
 * Biconomy SDK does; initCode / paymasterAndData / signature default to empty.
 */
export const PartialUserOperationSchema = z.object({
  sender: AddressSchema,
  nonce: QuantitySchema,
  initCode: BytesSchema.default('0x'),
  callData: BytesSchema,
  callGasLimit: QuantitySchema.optional(),
  verificationGasLimit: QuantitySchema.optional(),
  preVerificationGas: QuantitySchema.optional(),
  maxFeePerGas: QuantitySchema.optional(),
  maxPriorityFeePerGas: QuantitySchema.optional(),
  paymasterAndData: BytesSchema.default('0x'),
  signature: BytesSchema.default('0x'),
})
export type PartialUserOperation = z.output<typeof PartialUserOperationSchema>

/** The UserOperation in the wire form of ERC-4337 RPC (numbers as 0x-hex). */
export type WireUserOperation = Record<keyof UserOperationV06, Hex>

export function toHexQuantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}

export function toWireUserOperation(op: UserOperationV06): WireUserOperation {
  return {
    sender: op.sender,
    nonce: toHexQuantity(op.nonce),
    initCode: op.initCode,
    callData: op.callData,
    callGasLimit: toHexQuantity(op.callGasLimit),
    verificationGasLimit: toHexQuantity(op.verificationGasLimit),
    preVerificationGas: toHexQuantity(op.preVerificationGas),
    maxFeePerGas: toHexQuantity(op.maxFeePerGas),
    maxPriorityFeePerGas: toHexQuantity(op.maxPriorityFeePerGas),
    paymasterAndData: op.paymasterAndData,
    signature: op.signature,
  }
}

/** Reads a stored wire UserOperation back into the domain form. */
export function fromWireUserOperation(op: WireUserOperation): UserOperationV06 {
  return UserOperationSchema.parse(op)
}

/** First 20 bytes of initCode / paymasterAndData, or null when empty. */
export function addressPrefix(data: Hex): Hex | null {
  return data.length >= 42 ? getAddress(data.slice(0, 42)) : null
}
