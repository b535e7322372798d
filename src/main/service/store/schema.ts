import { z } from 'zod'

/** The version this build writes. Older documents are migrated forward on load (see migrations.ts). */
export const CURRENT_SCHEMA_VERSION = 1

const isoDate = z.string().min(1)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)

export const AccountSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  authToken: z.string().min(32),
  /** Key that goes into the bundler URL `/api/v2/:chainId/:bundlerKey`. */
  bundlerKey: z.string().regex(/^[A-Za-z0-9.-]+$/),
  createdAt: isoDate,
})
export type Account = z.infer<typeof AccountSchema>

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

export const DappPoliciesSchema = z.object({
  limits: z.array(SpendingLimitSchema).default([]),
  /** Optional sponsorship window (unix seconds). */
  validAfter: z.number().int().nonnegative().nullable().default(null),
  validUntil: z.number().int().nonnegative().nullable().default(null),
  /** Premium added to ERC20 fee quotes, percent. */
  premiumPercentage: z.number().min(0).max(100).default(10),
})
export type DappPolicies = z.infer<typeof DappPoliciesSchema>

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
  paymasterId: address.nullable().default(null),
  policies: DappPoliciesSchema.default({ limits: [], validAfter: null, validUntil: null, premiumPercentage: 10 }),
  createdAt: isoDate,
})
export type Dapp = z.infer<typeof DappSchema>

export const SmartContractSchema = z.object({
  id: z.string().min(1),
  dappId: z.string().min(1),
  name: z.string().min(1),
  /** Checksummed. */
  address,
  abi: z.string(),
  whitelistedMethods: z.array(z.string()),
  methods: z.array(z.string()),
  createdAt: isoDate,
  updatedAt: isoDate,
})
export type SmartContract = z.infer<typeof SmartContractSchema>

export const WebhookSchema = z.object({
  webhookId: z.string().min(1),
  dappId: z.string().min(1),
  webhookUrl: z.string().url(),
  requestType: z.enum(['GET', 'POST']),
  active: z.boolean(),
  createdAt: isoDate,
})
export type Webhook = z.infer<typeof WebhookSchema>

export const StoreDocumentSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  createdAt: isoDate,
  accounts: z.array(AccountSchema),
  dapps: z.array(DappSchema),
  smartContracts: z.array(SmartContractSchema),
  webhooks: z.array(WebhookSchema),
})
export type StoreDocument = z.infer<typeof StoreDocumentSchema>

export function createEmptyDocument(now = new Date()): StoreDocument {
  return {
    schemaVersion: CURRENT_SCHEMA_VERSION,
    createdAt: now.toISOString(),
    accounts: [],
    dapps: [],
    smartContracts: [],
    webhooks: [],
  }
}
