import type { Store } from './openStore'
import { ACTIVITY_COLLECTIONS, type StoreDocument } from './schema'

/** What a revert leaves as it is: who the user is (the auth token) and the settings. */
const KEPT_ACROSS_REVERTS = new Set<keyof StoreDocument>([
  'schemaVersion',
  'createdAt',
  'accounts',
  'settings',
])

/** Collections whose records carry their chain. */
const BY_CHAIN = ['dapps', 'sponsorships', 'sponsorshipUsage', 'webhookCalls', 'userOperations'] as const
/** Collections whose records belong to a dApp (so to its chain). */
const BY_DAPP = ['smartContracts', 'webhooks'] as const

/** The store document as a stack snapshot keeps it (every collection but the account and settings), as JSON. */
export type StoreState = string

/**
 * Which records a chain's snapshots take: `undefined` for a service of one chain (its snapshots take the whole
 * document, as they always have), else the chain id of one chain of several (its records, its dApps and what belongs
 * to them; another chain's records and what belongs to no chain, such as token prices, stay as they are).
 */
export type StoreScope = number | undefined

export function captureStore(store: Store, scope?: StoreScope): StoreState {
  const copy: Partial<StoreDocument> = {}
  if (scope === undefined) {
    for (const [key, value] of Object.entries(store.data))
      if (!KEPT_ACROSS_REVERTS.has(key as keyof StoreDocument)) Object.assign(copy, { [key]: value })
    return JSON.stringify(copy)
  }
  const owns = ownedBy(store.data, scope)
  for (const key of [...BY_CHAIN, ...BY_DAPP])
    Object.assign(copy, { [key]: (store.data[key] as object[]).filter((r) => owns(r)) })
  return JSON.stringify(copy)
}

/**
 * The document back to a captured state (its account and settings as they are), written before it resolves: records
 * made after the snapshot are dropped, written or not. With a chain's scope, only that chain's records go back.
 */
export async function restoreStore(store: Store, state: StoreState, scope?: StoreScope): Promise<void> {
  const copy = JSON.parse(state) as Partial<StoreDocument>
  if (scope === undefined) {
    await store.update((doc) => {
      for (const key of Object.keys(doc) as (keyof StoreDocument)[])
        if (!KEPT_ACROSS_REVERTS.has(key) && !(key in copy)) Object.assign(doc, { [key]: [] })
      Object.assign(doc, copy)
    })
    return
  }
  await store.update((doc) => {
    // A dApp made after the snapshot is the chain's too (its contracts and webhooks go with it).
    const owns = ownedBy(doc, scope, copy.dapps ?? [])
    for (const key of [...BY_CHAIN, ...BY_DAPP]) {
      const others = (doc[key] as object[]).filter((r) => !owns(r))
      Object.assign(doc, { [key]: inOrder(key, [...others, ...((copy[key] as object[] | undefined) ?? [])]) })
    }
  })
}

/**
 * The document as on the chain's first start: no operations, sponsorships, spending or webhook calls (of that chain,
 * with a chain's scope; of every chain otherwise), and no gas tank funded on `chainId` (each is funded again); the
 * dApps, their policies, contracts and webhooks stay.
 */
export async function resetStoreActivity(store: Store, chainId: number, scope?: StoreScope): Promise<void> {
  await store.update((doc) => {
    // The activity goes; the configuration (dApps, policies, contracts, webhooks) stays.
    for (const key of ACTIVITY_COLLECTIONS)
      Object.assign(doc, {
        [key]:
          scope === undefined ? [] : (doc[key] as { chainId: number }[]).filter((r) => r.chainId !== scope),
      })
    for (const dapp of doc.dapps) if (dapp.chainId === chainId) dapp.gasTanksFunded = []
  })
}

/** Whether a record of a chain-scoped or dApp-scoped collection belongs to `chainId`. */
function ownedBy(
  doc: Pick<StoreDocument, 'dapps'>,
  chainId: number,
  moreDapps: readonly { id: string; chainId: number }[] = [],
): (record: object) => boolean {
  const dappIds = new Set([...doc.dapps, ...moreDapps].filter((d) => d.chainId === chainId).map((d) => d.id))
  return (record) =>
    'chainId' in record
      ? record.chainId === chainId
      : 'dappId' in record && dappIds.has(record.dappId as string)
}

/**
 * A collection put together from two chains' records in the order it is read in: operation records by `seq` (the
 * log reads them so), records with a creation time by it, the rest as they come.
 */
function inOrder(key: string, records: object[]): object[] {
  const field = key === 'userOperations' ? 'seq' : 'createdAt'
  if (!records.every((r) => field in r)) return records
  const value = (r: object) => (r as Record<string, string | number>)[field] as string | number
  return records.sort((a, b) => (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0))
}
