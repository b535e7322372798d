import { z } from 'zod'
import { addressSchema, EntryPointVersionSchema, isoDateSchema } from './fields'

/** dApps (the dashboard calls them paymasters) as the store keeps them and as the APIs show them, with their policies. */

export const SpendingLimitSchema = z.object({
  id: z.string().min(1),
  /** PAYMASTER = whole dApp, SMART_ACCOUNT = per sender. */
  type: z.enum(['PAYMASTER', 'SMART_ACCOUNT']),
  thresholdType: z.enum(['COUNT', 'NATIVE_ASSET']),
  /** Count of operations, or wei as a decimal string. */
  threshold: z.string().regex(/^\d+$/),
  cycleDuration: z.object({ value: z.number().int().positive(), unit: z.enum(['hour', 'day']) }),
  active: z.boolean().default(true),
})
export type SpendingLimit = z.infer<typeof SpendingLimitSchema>

/** The highest block number a block window can name: v0.9 keeps the bits below the top one of a uint48. */
export const MAX_WINDOW_BLOCK = 0x7fff_ffff_ffff

/**
 * The least a block window's signature may last, in blocks: the bundler admits an operation only while it stays valid
 * for two more blocks (the next one holds its bundle, or the one after).
 */
export const MIN_VALID_FOR_BLOCKS = 2

/** Where the policy tells a block window from a time window (the form, the API documents and the record say it). */
export const BLOCK_WINDOW_VERSIONS_NOTE =
  'EntryPoint v0.9 only: v0.6, v0.7 and v0.8 read validUntil and validAfter as times, so their sponsorships keep the time window'

/**
 * A dApp's sponsorship window in block numbers, for EntryPoint v0.9 operations (validAfter and validUntil with their top
 * bit set): each signature is valid for `validForBlocks` blocks from the block it is signed at, and sponsorship runs
 * only while the chain is past `validAfterBlock` and before `validUntilBlock` (a signed window never ends later).
 */
export const BlockWindowPolicySchema = z.object({
  validForBlocks: z.number().int().min(MIN_VALID_FOR_BLOCKS).max(MAX_WINDOW_BLOCK),
  validAfterBlock: z.number().int().nonnegative().max(MAX_WINDOW_BLOCK).nullable().default(null),
  validUntilBlock: z.number().int().positive().max(MAX_WINDOW_BLOCK).nullable().default(null),
})
export type BlockWindowPolicy = z.infer<typeof BlockWindowPolicySchema>

/** `GET|PATCH /console/api/dapps/:apiKey/policies` answers these. */
export const DappPoliciesSchema = z.object({
  limits: z.array(SpendingLimitSchema).default([]),
  /** Optional sponsorship window (unix seconds). */
  validAfter: z.number().int().nonnegative().nullable().default(null),
  validUntil: z.number().int().nonnegative().nullable().default(null),
  /** v0.9 sponsorships signed for a window in block numbers instead of seconds (null: time windows). */
  blockWindow: BlockWindowPolicySchema.nullable()
    .default(null)
    .meta({ description: `Sign sponsorships for a window in block numbers. ${BLOCK_WINDOW_VERSIONS_NOTE}` }),
  /** Premium added to ERC20 fee quotes, percent. */
  premiumPercentage: z.number().min(0).max(100).default(10),
})
export type DappPolicies = z.infer<typeof DappPoliciesSchema>

/** A spending limit as the console edits it and `PATCH …/policies` takes it: a new limit has no id yet. */
export type SpendingLimitDraft = Omit<SpendingLimit, 'id'> & { id?: string }
/** The policies as the console edits them (the answer's, with limits that may be new). */
export type DappPoliciesDraft = Omit<DappPolicies, 'limits'> & { limits: SpendingLimitDraft[] }
/** What `PATCH /console/api/dapps/:apiKey/policies` takes: the fields to change. */
export type DappPoliciesPatch = Partial<DappPoliciesDraft>

export const DappSchema = z.object({
  id: z.string().min(1),
  accountId: z.string().min(1),
  name: z.string().min(1),
  chainId: z.number().int().positive(),
  apiKey: z.string().min(1),
  type: z.string(),
  version: z.string(),
  active: z.boolean().default(true),
  /** On-chain gas tank id on the verifying paymaster; set once the chain has created it. */
  paymasterId: addressSchema.nullable().default(null),
  /**
   * The EntryPoint versions whose gas tank has had a deposit on this chain (the first one funds it; a tank emptied on
   * purpose stays empty). Unset for dApps from before it was kept: their deposits are read from the chain once.
   * Emptied when the chain is reset (new genesis): every tank is funded again as on first start.
   */
  gasTanksFunded: z.array(EntryPointVersionSchema).optional(),
  policies: DappPoliciesSchema.default({
    limits: [],
    validAfter: null,
    validUntil: null,
    blockWindow: null,
    premiumPercentage: 10,
  }),
  createdAt: isoDateSchema,
})
export type Dapp = z.infer<typeof DappSchema>

/** A dApp as the dashboard API shows it: the spec's fields first, then Opstation's own. */
export const PaymasterViewSchema = DappSchema.pick({
  name: true,
  chainId: true,
  apiKey: true,
  type: true,
  version: true,
  active: true,
  paymasterId: true,
  createdAt: true,
}).extend({
  apiKey: DappSchema.shape.apiKey.meta({
    description: 'Goes in the apiKey header of dApp-scoped calls and in the paymaster URL',
  }),
  active: DappSchema.shape.active.meta({ description: 'An inactive dApp sponsors nothing' }),
  paymasterId: DappSchema.shape.paymasterId.meta({
    description: 'Its gas tank on the verifying paymaster; null until the chain has created it',
  }),
})
export type PaymasterView = z.output<typeof PaymasterViewSchema>

/** What `POST /api/v2/public/sdk/paymaster` answers. */
export const CreatedPaymasterSchema = PaymasterViewSchema.pick({ name: true, chainId: true, apiKey: true })
export type CreatedPaymaster = z.output<typeof CreatedPaymasterSchema>
