import { discardBatchedAppends, flushBatchedAppenders } from './batchedAppend'
import type { Store } from './openStore'
import type { StoreDocument } from './schema'

/** What a revert leaves as it is: who the user is (the auth token) and the settings. */
const KEPT_ACROSS_REVERTS = new Set<keyof StoreDocument>([
  'schemaVersion',
  'createdAt',
  'accounts',
  'settings',
])

/** The activity a reset empties; the configuration (dApps, policies, contracts, webhooks) stays. */
const ACTIVITY = ['userOperations', 'sponsorships', 'sponsorshipUsage', 'webhookCalls'] as const

/** The store document as a stack snapshot keeps it (every collection but the account and settings), as JSON. */
export type StoreState = string

/** Writes every queued change: the document on disk is the document in memory (before a capture). */
export async function settleStore(store: Store): Promise<void> {
  await flushBatchedAppenders(store)
  await store.flush()
}

export function captureStore(store: Store): StoreState {
  const copy: Partial<StoreDocument> = {}
  for (const [key, value] of Object.entries(store.data))
    if (!KEPT_ACROSS_REVERTS.has(key as keyof StoreDocument)) Object.assign(copy, { [key]: value })
  return JSON.stringify(copy)
}

/**
 * The document back to a captured state (its account and settings as they are), written before it resolves. Records
 * queued for a batch and not written yet are dropped: they were made after the snapshot.
 */
export async function restoreStore(store: Store, state: StoreState): Promise<void> {
  await discardBatchedAppends(store)
  const copy = JSON.parse(state) as Partial<StoreDocument>
  await store.update((doc) => {
    for (const key of Object.keys(doc) as (keyof StoreDocument)[])
      if (!KEPT_ACROSS_REVERTS.has(key) && !(key in copy)) Object.assign(doc, { [key]: [] })
    Object.assign(doc, copy)
  })
}

/**
 * The document as on the chain's first start: no operations, sponsorships, spending or webhook calls, and no gas tank
 * funded on `chainId` (each is funded again); the dApps, their policies, contracts and webhooks stay.
 */
export async function resetStoreActivity(store: Store, chainId: number): Promise<void> {
  await discardBatchedAppends(store)
  await store.update((doc) => {
    for (const key of ACTIVITY) doc[key] = []
    for (const dapp of doc.dapps) if (dapp.chainId === chainId) dapp.gasTanksFunded = []
  })
}
