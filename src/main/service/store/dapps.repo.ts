import type { Dapp } from '../../../shared/api/dapps'
import { ConflictError, NotFoundError } from '../errors'
import { generateApiKey, generateId } from './ids'
import type { Store } from './openStore'

export type CreateDappParameters = {
  accountId: string
  name: string
  chainId: number
  type: string
  version: string
  /** A fixed apiKey (a setup file's); default a generated one. No other dApp may hold it. */
  apiKey?: string
}

const API_KEY_TAKEN = 'apiKey already belongs to another paymaster'

/** Creates a dApp (a "paymaster" in the dashboard API). Names are unique per account and chain. */
export async function createDapp(
  store: Store,
  params: CreateDappParameters,
  now = new Date(),
): Promise<Dapp> {
  const dapp: Dapp = {
    id: generateId(),
    accountId: params.accountId,
    name: params.name,
    chainId: params.chainId,
    apiKey: params.apiKey ?? generateApiKey(),
    type: params.type,
    version: params.version,
    active: true,
    paymasterId: null,
    policies: { limits: [], validAfter: null, validUntil: null, blockWindow: null, premiumPercentage: 10 },
    createdAt: now.toISOString(),
  }
  return store.update((doc) => {
    const taken = doc.dapps.some(
      (d) => d.accountId === params.accountId && d.chainId === params.chainId && d.name === params.name,
    )
    if (taken) throw new ConflictError('paymaster_name_exists')
    if (doc.dapps.some((d) => d.apiKey === dapp.apiKey)) throw new ConflictError(API_KEY_TAKEN)
    doc.dapps.push(dapp)
    return dapp
  })
}

export function listDapps(store: Store, accountId: string): Dapp[] {
  return store.data.dapps.filter((d) => d.accountId === accountId)
}

/** Finds a dApp by apiKey; with `accountId`, a dApp of another account is treated as absent. */
export function findDappByApiKey(store: Store, apiKey: string, accountId?: string): Dapp | undefined {
  return store.data.dapps.find(
    (d) => d.apiKey === apiKey && (accountId === undefined || d.accountId === accountId),
  )
}

export async function setDappPaymasterId(store: Store, dappId: string, paymasterId: string): Promise<void> {
  await store.update((doc) => {
    const dapp = doc.dapps.find((d) => d.id === dappId)
    if (dapp) dapp.paymasterId = paymasterId
  })
}

/** Replaces a dApp's apiKey (a setup file's fixed one): the old key stops working at once. */
export async function setDappApiKey(store: Store, dappId: string, apiKey: string): Promise<Dapp> {
  return store.update((doc) => {
    const dapp = doc.dapps.find((d) => d.id === dappId)
    if (!dapp) throw new NotFoundError('Paymaster not found')
    if (doc.dapps.some((d) => d !== dapp && d.apiKey === apiKey)) throw new ConflictError(API_KEY_TAKEN)
    dapp.apiKey = apiKey
    return dapp
  })
}

/** Notes that these versions' gas tanks of the dApp had a deposit (see Dapp.gasTanksFunded). */
export async function markGasTanksFunded(
  store: Store,
  dappId: string,
  versions: readonly NonNullable<Dapp['gasTanksFunded']>[number][],
): Promise<void> {
  await store.update((doc) => {
    const dapp = doc.dapps.find((d) => d.id === dappId)
    if (dapp) dapp.gasTanksFunded = [...new Set([...(dapp.gasTanksFunded ?? []), ...versions])].sort()
  })
}

/** After a chain reset (new genesis) no gas tank of the chain's dApps holds anything: each is funded again. */
export async function forgetGasTanksFunded(store: Store, chainId: number): Promise<void> {
  await store.update((doc) => {
    for (const dapp of doc.dapps) if (dapp.chainId === chainId) dapp.gasTanksFunded = []
  })
}

/** Activates or deactivates a dApp: a deactivated dApp's sponsorship decisions fail at the dApp step. */
export async function setDappActive(store: Store, dappId: string, active: boolean): Promise<Dapp> {
  return store.update((doc) => {
    const dapp = doc.dapps.find((d) => d.id === dappId)
    if (!dapp) throw new NotFoundError('Paymaster not found for this apiKey')
    dapp.active = active
    return dapp
  })
}
