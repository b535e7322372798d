import { z } from 'zod'
import { DappSchema } from '../../../shared/api/dapps'
import { addressSchema as address, isoDateSchema as isoDate } from '../../../shared/api/fields'
import { type Settings, SettingsSchema } from '../../../shared/api/settings'
import { SmartContractSchema } from '../../../shared/api/smartContracts'
import { SponsorshipSchema } from '../../../shared/api/sponsorships'
import { UserOperationRecordSchema } from '../../../shared/api/userOperations'
import { WebhookCallSchema, WebhookSchema } from '../../../shared/api/webhooks'

/**
 * The store's document. The records the APIs also show (dApps and their policies, contracts, webhooks and their
 * calls, sponsorship decisions, settings, UserOperations) are defined in src/shared/api, where the console reads
 * their types too; import them from there.
 */
/** Still read from here by server/buildServer.ts (being reworked on another branch); to go once it imports the API's. */
export type { Dapp } from '../../../shared/api/dapps'

/** The version this build writes. Older documents are migrated forward on load (see migrations.ts). */
export const CURRENT_SCHEMA_VERSION = 3

export const AccountSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  authToken: z.string().min(32),
  /** Key that goes into the bundler URL `/api/v2/:chainId/:bundlerKey`. */
  bundlerKey: z.string().regex(/^[A-Za-z0-9.-]+$/),
  createdAt: isoDate,
})
export type Account = z.infer<typeof AccountSchema>

/** A sponsored UserOperation as mined: what spending limits count (policy/syncSponsorshipUsage.ts). */
export const SponsorshipUsageSchema = z.object({
  userOpHash: z.string(),
  dappId: z.string().min(1),
  /** The dApp's chain (the store's migration 2 -> 3 gave older entries their dApp's). */
  chainId: z.number().int().positive(),
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

/** USD price of a fee token (or of the native coin, address 0xEeee...EEeE) used for ERC20 fee quotes. */
export const TokenPriceSchema = z.object({
  tokenAddress: address,
  /** USD per whole token, decimal string. */
  usdPrice: z.string().regex(/^\d+(\.\d+)?$/),
  logoUrl: z.string().nullable().default(null),
  updatedAt: isoDate,
})
export type TokenPrice = z.infer<typeof TokenPriceSchema>

export const DEFAULT_SETTINGS: Settings = {
  rpcUrl: null,
  bundlingMode: 'auto',
  unsafe: false,
  webhookTimeoutMs: 3000,
  chains: null,
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

/**
 * The activity collections: what the service records as it works (operations, sponsorship decisions, spending,
 * webhook calls), bounded lists of many items. A reset of the chain empties them (storeSnapshots.ts); the store
 * keeps each item's JSON between writes (documentSerializer.ts).
 */
export const ACTIVITY_COLLECTIONS = [
  'userOperations',
  'sponsorships',
  'sponsorshipUsage',
  'webhookCalls',
] as const

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
