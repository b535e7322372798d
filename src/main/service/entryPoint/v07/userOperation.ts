import { type Address, getAddress, type Hex } from 'viem'
import { z } from 'zod'
import { AddressSchema, BytesSchema, toHexQuantity } from '../../schemas/hexSchemas'
import { QuantitySchema } from '../../schemas/quantitySchema'

/**
 * An EIP-7702 authorization as ERC-7769 carries it in `eip7702Auth` (every packed EntryPoint: the bundle's type-4
 * transaction carries it; v0.8+ also hash it with the `0x7702` factory marker).
 */
export type Eip7702Auth = {
  chainId: bigint
  address: Address
  nonce: bigint
  yParity: number
  r: Hex
  s: Hex
}

/**
 * A v0.7 / v0.8 / v0.9 UserOperation in its RPC (unpacked) form, numbers as bigint. `factory` is the `0x7702` marker
 * (as 20 bytes, `0x7702000…`) on v0.8+ for an EIP-7702 account; `eip7702Auth` may ride on any of them; `paymasterSignature` is v0.9 only.
 */
export type UserOperationV07 = {
  sender: Address
  nonce: bigint
  factory: Address | null
  factoryData: Hex
  callData: Hex
  callGasLimit: bigint
  verificationGasLimit: bigint
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  paymaster: Address | null
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  paymasterData: Hex
  signature: Hex
  eip7702Auth: Eip7702Auth | null
  /**
   * v0.9: the paymaster's signature, packed after paymasterData (signature ‖ its 2-byte length ‖ magic) and left out
   * of the userOpHash, so account and paymaster sign in parallel. Absent when there is none.
   */
  paymasterSignature?: Hex
  /**
   * The address an EIP-7702 account delegates to, where the operation carries no authorization (read back from
   * the chain for a mined operation): v0.8 hashes initCode with it. Not part of the wire form.
   */
  eip7702Delegate?: Address
}

/** The `factory` value ERC-7769 uses for an EIP-7702 account (`0x7702`, right-padded to 20 bytes in initCode). */
export const EIP7702_FACTORY_MARKER = '0x7702000000000000000000000000000000000000' as Address

/** `factory` on the wire: an address, or the short `0x7702` marker of an EIP-7702 account. */
const FactorySchema = z
  .string()
  .regex(/^0x(7702|[0-9a-fA-F]{40})$/, 'expected a factory address or the 0x7702 marker')
  .transform((v) =>
    v.length === 6 || BigInt(v) === BigInt(EIP7702_FACTORY_MARKER) ? EIP7702_FACTORY_MARKER : getAddress(v),
  )

const Bytes32Schema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/, 'expected a 0x-prefixed value of at most 32 bytes')
  .transform((v) => `0x${v.slice(2).padStart(64, '0').toLowerCase()}` as Hex)

export const Eip7702AuthSchema = z.object({
  chainId: QuantitySchema,
  address: AddressSchema,
  nonce: QuantitySchema,
  yParity: QuantitySchema.refine((v) => v <= 1n, 'yParity must be 0 or 1').transform(Number),
  r: Bytes32Schema,
  s: Bytes32Schema,
})

const optionalNullable = <T extends z.ZodType>(schema: T) => schema.nullish()

/**
 * Fields shared by the complete and the partial operation. Optional groups follow ERC-7769: `factory` and
 * `factoryData` together, the four paymaster fields together; absent and `null` mean "none".
 */
const baseShape = {
  sender: AddressSchema,
  nonce: QuantitySchema,
  factory: optionalNullable(FactorySchema),
  factoryData: optionalNullable(BytesSchema),
  callData: BytesSchema,
  paymaster: optionalNullable(AddressSchema),
  paymasterData: optionalNullable(BytesSchema),
  signature: BytesSchema,
  eip7702Auth: optionalNullable(Eip7702AuthSchema),
  paymasterSignature: optionalNullable(BytesSchema),
}

type ParsedOperation = {
  sender: Address
  nonce: bigint
  factory?: Address | null
  factoryData?: Hex | null
  callData: Hex
  callGasLimit?: bigint
  verificationGasLimit?: bigint
  preVerificationGas?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  paymaster?: Address | null
  paymasterVerificationGasLimit?: bigint | null
  paymasterPostOpGasLimit?: bigint | null
  paymasterData?: Hex | null
  signature: Hex
  eip7702Auth?: Eip7702Auth | null
  paymasterSignature?: Hex | null
}

function normalize(op: ParsedOperation, ctx: z.RefinementCtx, partial: boolean): UserOperationV07 {
  if (!op.factory && op.factoryData && op.factoryData !== '0x')
    ctx.addIssue({ code: 'custom', path: ['factoryData'], message: 'factoryData without a factory' })
  if (!op.paymaster) {
    for (const field of [
      'paymasterData',
      'paymasterVerificationGasLimit',
      'paymasterPostOpGasLimit',
      'paymasterSignature',
    ] as const) {
      const value = op[field]
      if (value !== undefined && value !== null && value !== '0x' && value !== 0n)
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} without a paymaster` })
    }
  } else if (!partial) {
    for (const field of ['paymasterVerificationGasLimit', 'paymasterPostOpGasLimit'] as const) {
      if (op[field] === undefined || op[field] === null)
        ctx.addIssue({ code: 'custom', path: [field], message: `${field} is required with a paymaster` })
    }
  }
  return {
    sender: op.sender,
    nonce: op.nonce,
    factory: op.factory ?? null,
    factoryData: op.factory ? (op.factoryData ?? '0x') : '0x',
    callData: op.callData,
    callGasLimit: op.callGasLimit ?? 0n,
    verificationGasLimit: op.verificationGasLimit ?? 0n,
    preVerificationGas: op.preVerificationGas ?? 0n,
    maxFeePerGas: op.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: op.maxPriorityFeePerGas ?? 0n,
    paymaster: op.paymaster ?? null,
    paymasterVerificationGasLimit: op.paymaster ? (op.paymasterVerificationGasLimit ?? 0n) : 0n,
    paymasterPostOpGasLimit: op.paymaster ? (op.paymasterPostOpGasLimit ?? 0n) : 0n,
    paymasterData: op.paymaster ? (op.paymasterData ?? '0x') : '0x',
    signature: op.signature,
    eip7702Auth: op.eip7702Auth ?? null,
    ...(op.paymaster && op.paymasterSignature && op.paymasterSignature !== '0x'
      ? { paymasterSignature: op.paymasterSignature }
      : {}),
  }
}

/** A complete v0.7/v0.8/v0.9 UserOperation (eth_sendUserOperation). */
export const UserOperationV07Schema = z
  .object({
    ...baseShape,
    callGasLimit: QuantitySchema,
    verificationGasLimit: QuantitySchema,
    preVerificationGas: QuantitySchema,
    maxFeePerGas: QuantitySchema,
    maxPriorityFeePerGas: QuantitySchema,
    paymasterVerificationGasLimit: optionalNullable(QuantitySchema),
    paymasterPostOpGasLimit: optionalNullable(QuantitySchema),
  })
  .transform((op, ctx) => normalize(op, ctx, false))

/** The partial operation of eth_estimateUserOperationGas: gas limits and fees may be left out. */
export const PartialUserOperationV07Schema = z
  .object({
    ...baseShape,
    signature: BytesSchema.default('0x'),
    callGasLimit: QuantitySchema.optional(),
    verificationGasLimit: QuantitySchema.optional(),
    preVerificationGas: QuantitySchema.optional(),
    maxFeePerGas: QuantitySchema.optional(),
    maxPriorityFeePerGas: QuantitySchema.optional(),
    paymasterVerificationGasLimit: optionalNullable(QuantitySchema),
    paymasterPostOpGasLimit: optionalNullable(QuantitySchema),
  })
  .transform((op, ctx) => ({
    ...normalize(op, ctx, true),
    given: {
      maxFeePerGas: op.maxFeePerGas,
      maxPriorityFeePerGas: op.maxPriorityFeePerGas,
    },
  }))
export type PartialUserOperationV07 = z.output<typeof PartialUserOperationV07Schema>

/** The ERC-7769 RPC form: quantities as 0x-hex; the factory and paymaster groups only when present. */
export function toWireUserOperationV07(op: UserOperationV07): Record<string, unknown> {
  return {
    sender: op.sender,
    nonce: toHexQuantity(op.nonce),
    ...(op.factory
      ? {
          factory: op.factory === EIP7702_FACTORY_MARKER ? '0x7702' : op.factory,
          factoryData: op.factoryData,
        }
      : {}),
    callData: op.callData,
    callGasLimit: toHexQuantity(op.callGasLimit),
    verificationGasLimit: toHexQuantity(op.verificationGasLimit),
    preVerificationGas: toHexQuantity(op.preVerificationGas),
    maxFeePerGas: toHexQuantity(op.maxFeePerGas),
    maxPriorityFeePerGas: toHexQuantity(op.maxPriorityFeePerGas),
    ...(op.paymaster
      ? {
          paymaster: op.paymaster,
          paymasterVerificationGasLimit: toHexQuantity(op.paymasterVerificationGasLimit),
          paymasterPostOpGasLimit: toHexQuantity(op.paymasterPostOpGasLimit),
          paymasterData: op.paymasterData,
        }
      : {}),
    ...(op.paymaster && op.paymasterSignature ? { paymasterSignature: op.paymasterSignature } : {}),
    signature: op.signature,
    ...(op.eip7702Auth
      ? {
          eip7702Auth: {
            chainId: toHexQuantity(op.eip7702Auth.chainId),
            address: op.eip7702Auth.address,
            nonce: toHexQuantity(op.eip7702Auth.nonce),
            yParity: toHexQuantity(op.eip7702Auth.yParity),
            r: op.eip7702Auth.r,
            s: op.eip7702Auth.s,
          },
        }
      : {}),
  }
}
