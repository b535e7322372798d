import { generateApiKey, generateAuthToken, generateId } from './ids'
import type { Store } from './openStore'
import type { Account } from './schema'

/** Returns the first local account, creating it (with a fresh auth token and bundler key) on first start. */
export async function ensureDefaultAccount(store: Store, now = new Date()): Promise<Account> {
  const existing = store.data.accounts[0]
  if (existing) return existing
  const account: Account = {
    id: generateId(),
    name: 'local',
    authToken: generateAuthToken(),
    bundlerKey: generateApiKey(),
    createdAt: now.toISOString(),
  }
  await store.update((doc) => {
    doc.accounts.push(account)
  })
  return account
}

export function findAccountByAuthToken(store: Store, authToken: string): Account | undefined {
  return store.data.accounts.find((a) => a.authToken === authToken)
}

export function findAccountByBundlerKey(store: Store, bundlerKey: string): Account | undefined {
  return store.data.accounts.find((a) => a.bundlerKey === bundlerKey)
}

/** Replaces an account's auth token; the old one stops working at once. */
export async function regenerateAuthToken(store: Store, accountId: string): Promise<string> {
  const token = generateAuthToken()
  await store.update((doc) => {
    const account = doc.accounts.find((a) => a.id === accountId)
    if (account) account.authToken = token
  })
  return token
}
