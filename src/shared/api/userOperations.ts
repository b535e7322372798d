import { z } from 'zod'
import {
  addressSchema as address,
  decimalSchema as decimal,
  EntryPointVersionSchema,
  hashSchema as hash,
  hexSchema as hex,
} from './fields'

/**
 * UserOperations as the bundler records them (the store keeps these records) and as the console's activity API
 * answers them (`/console/api/user-operations`).
 */

/** Where a UserOperation is in its life. */
export const UserOperationStatusSchema = z.enum([
  /** In the mempool. */
  'pending',
  /** In a bundle transaction that is not mined yet. */
  'submitted',
  /** Mined; its call phase succeeded. */
  'included',
  /** Mined; its call phase reverted (the EntryPoint still charged it). */
  'failed',
  /** Accepted, then removed before mining (it would have reverted the bundle, or the mempool was cleared). */
  'dropped',
  /** Refused by eth_sendUserOperation. */
  'rejected',
  /** Replaced by an operation with the same sender and nonce and higher fees. */
  'replaced',
])
export type UserOperationStatus = z.infer<typeof UserOperationStatusSchema>

/** Pending or submitted: the operation may still be mined. Every other status is final. */
export const isUnfinished = (status: UserOperationStatus): boolean =>
  status === 'pending' || status === 'submitted'

export const WireUserOperationSchema = z.object({
  sender: address,
  nonce: hex,
  initCode: hex,
  callData: hex,
  callGasLimit: hex,
  verificationGasLimit: hex,
  preVerificationGas: hex,
  maxFeePerGas: hex,
  maxPriorityFeePerGas: hex,
  paymasterAndData: hex,
  signature: hex,
})

/** A v0.7 / v0.8 UserOperation in its ERC-7769 wire form (the factory and paymaster groups when present). */
export const WireUserOperationV07Schema = z.object({
  sender: address,
  nonce: hex,
  factory: z
    .string()
    .regex(/^0x(7702|[0-9a-fA-F]{40})$/)
    .optional(),
  factoryData: hex.optional(),
  callData: hex,
  callGasLimit: hex,
  verificationGasLimit: hex,
  preVerificationGas: hex,
  maxFeePerGas: hex,
  maxPriorityFeePerGas: hex,
  paymaster: address.optional(),
  paymasterVerificationGasLimit: hex.optional(),
  paymasterPostOpGasLimit: hex.optional(),
  paymasterData: hex.optional(),
  signature: hex,
  eip7702Auth: z.object({ chainId: hex, address, nonce: hex, yParity: hex, r: hex, s: hex }).optional(),
})

/**
 * One UserOperation the bundler saw (accepted or rejected), with its timeline. Compact on purpose: the full
 * operation is kept only until it is mined (a mined one is read back from its bundle transaction).
 */
export const UserOperationRecordSchema = z.object({
  /** Monotonic insertion number (cursor of the activity feed). */
  seq: z.number().int().nonnegative(),
  userOpHash: hash,
  /** The chain the operation was sent to (the store's migration 2 -> 3 gave older records the one chain's). */
  chainId: z.number().int().positive(),
  entryPoint: address,
  sender: address,
  /** Full nonce, decimal. */
  nonce: decimal,
  status: UserOperationStatusSchema,
  /** The operation in its version's wire form (v0.6, or v0.7/v0.8 by the EntryPoint), until it is mined. */
  userOperation: z.union([WireUserOperationSchema, WireUserOperationV07Schema]).nullable(),
  /** The account's type (e.g. 'Safe 1.4.1', 'Kernel v3.1'), when Opstation knows it; older records have none. */
  account: z.string().nullable().optional(),
  factory: address.nullable(),
  paymaster: address.nullable(),
  /** dApp whose key was in the bundler URL, if any. */
  dappId: z.string().nullable(),
  /** Calls the account makes (decoded callData), when the account's execute function is known. */
  calls: z.array(z.object({ to: address, value: decimal, selector: hex.nullable() })).nullable(),
  /** Gas limits and fees the operation carried (the estimate, when it came from eth_estimateUserOperationGas). */
  gas: z.object({
    callGasLimit: decimal,
    verificationGasLimit: decimal,
    preVerificationGas: decimal,
    maxFeePerGas: decimal,
    maxPriorityFeePerGas: decimal,
    /** v0.7 / v0.8 with a paymaster. */
    paymasterVerificationGasLimit: decimal.optional(),
    paymasterPostOpGasLimit: decimal.optional(),
  }),
  /** EIP-7702 (v0.7+): the address the account (an EOA) delegates to through the operation's authorization. */
  eip7702Delegate: address.nullable().optional(),
  /** From the UserOperationEvent once mined. */
  actualGasUsed: decimal.nullable(),
  actualGasCost: decimal.nullable(),
  transactionHash: hash.nullable(),
  blockNumber: z.number().int().nonnegative().nullable(),
  blockHash: hash.nullable(),
  /** [first, last] index of this operation's logs in the bundle receipt. */
  logRange: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /**
   * Why the call phase (or, `postOp reverted: …`, the paymaster's postOp) failed, decoded with the ABIs the service
   * knows (`InsufficientBalance(5, 7)`); the raw data when no known ABI has the error.
   */
  revertReason: z.string().nullable(),
  /** The revert data the EntryPoint's UserOperationRevertReason or PostOpRevertReason event carried, raw. */
  revertData: hex.nullable().optional(),
  /** Why it was rejected or dropped. */
  failure: z
    .object({
      code: z.number().int(),
      aaCode: z.string().nullable(),
      reason: z.string(),
      rules: z.array(z.string()).optional(),
    })
    .nullable(),
  /** Receipt shape its client reads: Biconomy's (spec section 2.4) or ERC-4337 RPC. */
  receiptFormat: z.enum(['biconomy', 'standard']),
  timeline: z.array(z.object({ status: z.string(), at: z.string(), note: z.string().optional() })),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The chain's time at `updatedAt` (unix seconds): differs from it once the chain's clock was moved. */
  chainTime: z.number().int().nonnegative().optional(),
})
export type UserOperationRecord = z.infer<typeof UserOperationRecordSchema>

/** A record as the console shows it: the record plus its EntryPoint's version and the estimated-versus-used figures. */
export const UserOperationViewSchema = UserOperationRecordSchema.extend({
  entryPointVersion: EntryPointVersionSchema.nullable(),
  gasLimitTotal: z.string().meta({ description: 'Every gas limit the operation carried, summed (decimal)' }),
  gasUsedPercent: z
    .number()
    .nullable()
    .meta({ description: 'actualGasUsed as a percentage of gasLimitTotal' }),
})
export type UserOperationView = z.output<typeof UserOperationViewSchema>

/** A page of the activity feed, newest first. */
export const UserOperationPageSchema = z.object({
  items: z.array(UserOperationViewSchema),
  nextBefore: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The `before` of the next page; null at the end' }),
})
export type UserOperationPage = z.output<typeof UserOperationPageSchema>
