import type { Hex } from 'viem'
import { z } from 'zod'
import type { UserOperationV06 } from '../../chain/types'
import { AddressSchema, BytesSchema, toHexQuantity } from '../../schemas/hexSchemas'
import { QuantitySchema } from '../../schemas/quantitySchema'

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
