import { z } from 'zod'
import { EntryPointVersionSchema } from '../../../shared/entryPointVersions'
import { UserOperationRecordSchema } from './userOperationRecord'

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
    premiumPercentage: 10,
  }),
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
  time: isoDate,
  /** The wire method that asked (pm_sponsorUserOperation, pm_getPaymasterData, ...). */
  method: z.string(),
  mode: z.enum(['SPONSORED', 'ERC20']),
  /** The EntryPoint version the operation is for (decisions from before v0.7 came are v0.6). */
  entryPointVersion: EntryPointVersionSchema.default('0.6'),
  sender: address,
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
  validUntil: z.number().int().nullable().default(null),
  feeToken: address.nullable().default(null),
  webhookCallId: z.string().nullable().default(null),
})
export type Sponsorship = z.infer<typeof SponsorshipSchema>

/** A sponsored UserOperation as mined: what spending limits count (policy/syncSponsorshipUsage.ts). */
export const SponsorshipUsageSchema = z.object({
  userOpHash: z.string(),
  dappId: z.string().min(1),
  paymasterId: address,
  sender: address,
  /** Wei charged to the gas tank (GasBalanceDeducted), decimal. */
  gasCostWei: z.string().regex(/^\d+$/),
  success: z.boolean(),
  blockNumber: z.number().int().nonnegative(),
  /** Block timestamp, unix seconds. */
  minedAt: z.number().int().nonnegative(),
})
export type SponsorshipUsage = z.infer<typeof SponsorshipUsageSchema>

/** One outbound webhook call with what was sent and received (bounded collection). */
export const WebhookCallSchema = z.object({
  id: z.string().min(1),
  webhookId: z.string().min(1),
  dappId: z.string().min(1),
  time: isoDate,
  method: z.enum(['GET', 'POST']),
  url: z.string(),
  requestBody: z.string().nullable(),
  status: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  latencyMs: z.number().nonnegative(),
  verified: z.boolean(),
  /** Which spelling carried the verdict. */
  field: z.enum(['arePoliciesVerified', 'arePoliciesVerifed']).nullable(),
  /** Why not verified (time-out, non-2xx, invalid JSON, missing field). */
  error: z.string().nullable(),
})
export type WebhookCall = z.infer<typeof WebhookCallSchema>

/** USD price of a fee token (or of the native coin, address 0xEeee...EEeE) used for ERC20 fee quotes. */
export const TokenPriceSchema = z.object({
  tokenAddress: address,
  /** USD per whole token, decimal string. */
  usdPrice: z.string().regex(/^\d+(\.\d+)?$/),
  logoUrl: z.string().nullable().default(null),
  updatedAt: isoDate,
})
export type TokenPrice = z.infer<typeof TokenPriceSchema>

/** Settings changed in the console; applied at start unless a command-line flag says otherwise. */
export const SettingsSchema = z.object({
  /** External node; null = embedded anvil. */
  rpcUrl: z.string().url().nullable().default(null),
  bundlingMode: z.enum(['auto', 'interval', 'manual']).default('auto'),
  unsafe: z.boolean().default(false),
  webhookTimeoutMs: z.number().int().positive().max(600_000).default(3000),
})
export type Settings = z.infer<typeof SettingsSchema>
export const DEFAULT_SETTINGS: Settings = {
  rpcUrl: null,
  bundlingMode: 'auto',
  unsafe: false,
  webhookTimeoutMs: 3000,
}

export const StoreDocumentSchema = z.object({
  schemaVersion: z.literal(CURRENT_SCHEMA_VERSION),
  createdAt: isoDate,
  accounts: z.array(AccountSchema),
  dapps: z.array(DappSchema),
  smartContracts: z.array(SmartContractSchema),
  webhooks: z.array(WebhookSchema),
  sponsorships: z.array(SponsorshipSchema).default([]),
  sponsorshipUsage: z.array(SponsorshipUsageSchema).default([]),
  webhookCalls: z.array(WebhookCallSchema).default([]),
  tokenPrices: z.array(TokenPriceSchema).default([]),
  userOperations: z.array(UserOperationRecordSchema).default([]),
  settings: SettingsSchema.default(DEFAULT_SETTINGS),
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
    sponsorships: [],
    sponsorshipUsage: [],
    webhookCalls: [],
    tokenPrices: [],
    userOperations: [],
    settings: { ...DEFAULT_SETTINGS },
  }
}
