import { z } from 'zod'
import { addressSchema, EntryPointVersionSchema, isoDateSchema } from './fields'

/** The paymaster's sponsorship decisions, as the store keeps them and as the console's activity API shows them. */

/** One step of a sponsorship decision, in evaluation order (policy/evaluateSponsorship.ts). */
export const SponsorshipStepSchema = z.object({
  step: z.string().min(1),
  outcome: z.enum(['pass', 'fail', 'skip']),
  detail: z.string(),
})
export type SponsorshipStep = z.infer<typeof SponsorshipStepSchema>

/** A recorded paymaster decision: why a UserOperation was or was not sponsored (bounded collection). */
export const SponsorshipSchema = z.object({
  id: z.string().min(1),
  dappId: z.string().min(1),
  /** The dApp's chain (the store's migration 2 -> 3 gave older decisions their dApp's). */
  chainId: z.number().int().positive(),
  time: isoDateSchema,
  /** The chain's time when it was decided (unix seconds): differs from `time` once the chain's clock was moved. */
  chainTime: z.number().int().nonnegative().optional(),
  /** The wire method that asked (pm_sponsorUserOperation, pm_getPaymasterData, ...). */
  method: z.string(),
  mode: z.enum(['SPONSORED', 'ERC20']),
  /** The EntryPoint version the operation is for (the store's migration 1 -> 2 gave older decisions v0.6). */
  entryPointVersion: EntryPointVersionSchema,
  sender: addressSchema,
  /** Decimal. */
  nonce: z.string(),
  /** Set when every field of the signed operation is known. */
  userOpHash: z.string().nullable(),
  sponsored: z.boolean(),
  steps: z.array(SponsorshipStepSchema),
  /** Why not sponsored (the failing step's detail), null when sponsored. */
  reason: z.string().nullable(),
  paymasterAndData: z.string().nullable().default(null),
  /** Gas limits returned (decimal strings). */
  gas: z
    .object({
      callGasLimit: z.string(),
      verificationGasLimit: z.string(),
      preVerificationGas: z.string(),
      /** v0.7+ with a paymaster. */
      paymasterVerificationGasLimit: z.string().optional(),
      paymasterPostOpGasLimit: z.string().optional(),
    })
    .nullable()
    .default(null),
  /** The signed window's end (unix seconds); null when not sponsored or when the window is in blocks. */
  validUntil: z.number().int().nullable().default(null),
  /** v0.9, a dApp asking block windows: the signed window, valid in the blocks after validAfterBlock up to validUntilBlock. */
  blockWindow: z
    .object({
      validAfterBlock: z.number().int().nonnegative(),
      validUntilBlock: z.number().int().nonnegative(),
    })
    .nullable()
    .default(null),
  feeToken: addressSchema.nullable().default(null),
  webhookCallId: z.string().nullable().default(null),
})
export type Sponsorship = z.infer<typeof SponsorshipSchema>

/** A decision as the console shows it: the record plus the dApp's apiKey and name, and `at` (ISO time). */
export const SponsorshipViewSchema = SponsorshipSchema.extend({
  at: z.string().meta({ description: 'When it was decided (ISO 8601)' }),
  apiKey: z.string().nullable(),
  dappName: z.string().nullable(),
})
export type SponsorshipView = z.output<typeof SponsorshipViewSchema>

export const SponsorshipListSchema = z.object({ items: z.array(SponsorshipViewSchema) })
export type SponsorshipList = z.output<typeof SponsorshipListSchema>
