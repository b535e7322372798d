import type { Address, Hex } from 'viem'
import { z } from 'zod'

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

/** The quantities a partial operation may leave out: its gas limits and fees. */
export const GAS_AND_FEE_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
] as const

const emptyBytes = BytesSchema.nullish().transform((v) => v ?? ('0x' as Hex))
const optionalQuantity = QuantitySchema.nullish()
  .transform((v) => v ?? undefined)
  .optional()

/**
 * A partial v0.6 UserOperation (eth_estimateUserOperationGas and every paymaster method, so both URLs take the same
 * operations): gas limits and fees may be left out or null, as the Biconomy SDK does; initCode / paymasterAndData /
 * signature default to empty. Hex keeps its case (either is accepted); the sender is checksummed.
 */
export const PartialUserOperationSchema = z.object(
  {
    sender: AddressSchema,
    nonce: QuantitySchema,
    initCode: emptyBytes,
    callData: BytesSchema,
    callGasLimit: optionalQuantity,
    verificationGasLimit: optionalQuantity,
    preVerificationGas: optionalQuantity,
    maxFeePerGas: optionalQuantity,
    maxPriorityFeePerGas: optionalQuantity,
    paymasterAndData: emptyBytes,
    signature: emptyBytes,
  },
  { error: 'expected a UserOperation object' },
)
export type PartialUserOperation = z.output<typeof PartialUserOperationSchema>

/** A partial operation in wire form (quantities as 0x-hex, the ones it left out left out), as webhooks receive it. */
export function toWirePartialUserOperation(op: PartialUserOperation): Record<string, Hex> {
  const wire: Record<string, Hex> = {
    sender: op.sender,
    nonce: toHexQuantity(op.nonce),
    initCode: op.initCode,
    callData: op.callData,
  }
  for (const key of GAS_AND_FEE_FIELDS) {
    const value = op[key]
    if (value !== undefined) wire[key] = toHexQuantity(value)
  }
  wire.paymasterAndData = op.paymasterAndData
  wire.signature = op.signature
  return wire
}

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

/** A v0.6 UserOperation (all numeric fields bigint). */
export type UserOperationV06 = {
  sender: Address
  nonce: bigint
  initCode: Hex
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymasterAndData: Hex
  signature: Hex
}
