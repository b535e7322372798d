import { type Address, formatEther, getAddress, numberToHex, parseEther } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import { ENTRY_POINT_VERSIONS } from '../../../shared/entryPointVersions'
import {
  type Chain,
  depositToGasTank,
  fundEth,
  getGasTankBalance,
  listGasTankVersions,
  requestRpc,
  withdrawFromGasTank,
} from '../chain'
import { describeChainIds } from '../chain/chainSpecs'
import { ChainError, ConflictError, InvalidInputError } from '../errors'
import { provisionGasTank } from '../gasTanks/provisionGasTanks'
import type { Logger } from '../log/logger'
import { readPriceTable } from '../paymaster/tokenPrices'
import { setDappPolicies } from '../store/dappPolicies.repo'
import {
  createDapp,
  findDappByApiKey,
  listDapps,
  markGasTanksFunded,
  setDappActive,
  setDappApiKey,
} from '../store/dapps.repo'
import { generateId } from '../store/ids'
import type { Store } from '../store/openStore'
import {
  createSmartContract,
  deleteSmartContract,
  findSmartContract,
  updateWhitelistedMethods,
} from '../store/smartContracts.repo'
import { setTokenPrice } from '../store/tokenPrices.repo'
import { createWebhook, deleteWebhook, listWebhooks, setWebhookActive } from '../store/webhooks.repo'
import type { FundedAccounts } from './fundedAccounts'
import { InvalidSetupError } from './InvalidSetupError'
import {
  checkPolicies,
  planBalanceChange,
  planContractChange,
  planPoliciesChange,
  planTokenPriceChange,
  planWebhookChange,
} from './planChanges'
import type { ReadSetupReturnType } from './readSetup'
import type { SetupChains } from './setupChains'
import type { SetupAccount, SetupDapp, SetupFile } from './setupFileSchema'

/** What a dApp made by a setup is created as (the dashboard API's creation fields). */
const DAPP_TYPE = 'HYBRID'
const DAPP_VERSION = '1.1.0'

export type ApplySetupParameters = {
  store: Store
  /** The chains the service runs: a dApp or an account names one of them (default the first). */
  chains: SetupChains
  /** The account whose dApps the setup names. */
  accountId: string
  fundedAccounts: FundedAccounts
  log?: Logger
}

export type ApplySetupReturnType = {
  /** One line per change made, in order; empty when the service already held the setup. */
  changes: string[]
  /** What the setup asks that this node cannot do (lower a balance on a node without dev methods). */
  warnings: string[]
}

/**
 * Brings the service to what the setup says, by name and key: dApps by name, their contracts by address, webhooks
 * by URL, token prices by address, funded accounts by address. Only what differs is written (through the same
 * repositories and chain functions the REST and console routes use), so applying a setup twice changes nothing;
 * what the file does not name is left alone. Problems found before any change (a missing chain, an apiKey of another
 * dApp, a policy window or a price the service refuses) change nothing; a failure midway keeps what was done.
 */
export async function applySetup(
  params: ApplySetupParameters,
  { setup, label }: ReadSetupReturnType,
): Promise<ApplySetupReturnType> {
  checkApplicable(params, setup, label)
  const result: ApplySetupReturnType = { changes: [], warnings: [] }
  for (const [index, dapp] of setup.dapps.entries())
    await applyDapp(params, result, dapp, `dapps[${index}]`, label)
  for (const [index, price] of setup.tokenPrices.entries()) {
    const current = params.store.data.tokenPrices.find(
      (p) => p.tokenAddress.toLowerCase() === price.tokenAddress.toLowerCase(),
    )
    if (!planTokenPriceChange(current, price)) continue
    await atPath(label, `tokenPrices[${index}]`, () => setTokenPrice(params.store, price))
    result.changes.push(`token price of ${getAddress(price.tokenAddress)} set to ${price.usdPrice} USD`)
  }
  for (const chainId of params.chains.chainIds) {
    const chain = params.chains.getChain(chainId)
    const accounts = setup.accounts.filter((a) => chainOf(params, a) === chainId)
    if (!chain || accounts.length === 0) continue
    for (const account of accounts) await applyAccount(chain, result, account)
    await params.fundedAccounts.remember(
      chainId,
      accounts.map((a) => a.address),
    )
  }
  if (result.changes.length > 0) params.log?.info({ changes: result.changes }, `setup ${label} applied`)
  for (const warning of result.warnings) params.log?.warn(`setup ${label}: ${warning}`)
  return result
}

/** What can be known to fail before anything changes. */
function checkApplicable(params: ApplySetupParameters, setup: SetupFile, label: string): void {
  const { store, chains } = params
  const fail = (path: string, message: string) => {
    throw new InvalidSetupError(`${label}: ${path} ${message}`)
  }
  const checkChain = (path: string, chainId: number | undefined) => {
    if (chainId !== undefined && !chains.chainIds.includes(chainId))
      fail(
        `${path}.chainId`,
        `is ${chainId}, a chain this Opstation does not run (it runs ${describeChainIds(chains.chainIds)})`,
      )
  }
  for (const [index, named] of (setup.chains ?? []).entries()) checkChain(`chains[${index}]`, named.chainId)
  for (const [index, desired] of setup.dapps.entries()) {
    const path = `dapps[${index}]`
    checkChain(path, desired.chainId)
    const chainId = chainOf(params, desired)
    const chain = chains.getChain(chainId)
    const mine = findDapps(params, chainId)
    if (desired.apiKey) {
      const owner = findDappByApiKey(store, desired.apiKey)
      if (owner && owner !== mine.get(desired.name))
        fail(`${path}.apiKey`, `is already the apiKey of the dApp "${owner.name}"`)
    }
    const current = mine.get(desired.name)
    if (current && desired.policies) {
      const next = planPoliciesChange(current.policies, desired.policies, () => 'new')
      const problem = next && checkPolicies(next)
      if (problem) fail(`${path}.policies`, `would leave the dApp's window wrong: ${problem}`)
    }
    if (desired.gasTanksEth) {
      if (!chain) fail(`${path}.gasTanksEth`, 'needs a chain (this service runs without one: --no-chain)')
      const served = listGasTankVersions(chain!)
      for (const version of ENTRY_POINT_VERSIONS) {
        if (desired.gasTanksEth[version] !== undefined && !served.includes(version))
          fail(
            `${path}.gasTanksEth["${version}"]`,
            `cannot be set: this chain has no EntryPoint v${version} verifying paymaster`,
          )
      }
    }
  }
  for (const [index, account] of setup.accounts.entries()) checkChain(`accounts[${index}]`, account.chainId)
  // Fee tokens sit at the same address on every chain (CREATE2): the first chain's table stands for all.
  const chain = chains.getChain(chains.chainIds[0] ?? 0)
  if (setup.accounts.length > 0 && !chain)
    fail('accounts', 'need a chain (this service runs without one: --no-chain)')
  if (chain && setup.tokenPrices.length > 0) {
    const given = new Map(setup.tokenPrices.map((p) => [p.tokenAddress.toLowerCase(), p]))
    const merged = [
      ...store.data.tokenPrices.filter((p) => !given.has(p.tokenAddress.toLowerCase())),
      ...setup.tokenPrices.map((p) => ({
        tokenAddress: p.tokenAddress,
        usdPrice: p.usdPrice,
        logoUrl: null,
      })),
    ]
    const { unquotable } = readPriceTable(chain.addresses.tokens, merged)
    if (unquotable.length > 0)
      fail(
        'tokenPrices',
        `leave ${unquotable.join(', ')} without an exchange rate (under 1 base unit per ETH): raise the native coin's price or lower the token's`,
      )
  }
}

async function applyDapp(
  params: ApplySetupParameters,
  result: ApplySetupReturnType,
  desired: SetupDapp,
  path: string,
  label: string,
): Promise<void> {
  const { store } = params
  const chainId = chainOf(params, desired)
  const chain = params.chains.getChain(chainId)
  const named = `dApp "${desired.name}"`
  const change = (text: string) => result.changes.push(`${named}: ${text}`)
  let found = findDapps(params, chainId).get(desired.name)
  if (!found) {
    found = await atPath(label, path, () =>
      createDapp(store, {
        accountId: params.accountId,
        name: desired.name,
        chainId,
        type: DAPP_TYPE,
        version: DAPP_VERSION,
        apiKey: desired.apiKey,
      }),
    )
    result.changes.push(`${named} created`)
    // As the dashboard API does: a new dApp gets its gas tanks (funded on a dev chain).
    if (chain)
      await provisionGasTank(chain, store, found).catch((err) => {
        if (desired.gasTanksEth) throw err
        params.log?.warn({ err, dapp: found?.id }, 'gas tank not created yet')
      })
  } else if (desired.apiKey && desired.apiKey !== found.apiKey) {
    await atPath(label, `${path}.apiKey`, () => setDappApiKey(store, found!.id, desired.apiKey!))
    change('apiKey replaced (the old one no longer works)')
  }
  const dappId = found.id
  const dapp = (): Dapp => {
    const current = store.data.dapps.find((d) => d.id === dappId)
    if (!current) throw new ChainError(`${named} disappeared while its setup was applied`)
    return current
  }

  if (desired.active !== undefined && desired.active !== dapp().active) {
    await setDappActive(store, dappId, desired.active)
    change(desired.active ? 'activated' : 'deactivated')
  }

  for (const [index, contract] of (desired.contracts ?? []).entries()) {
    const at = `${path}.contracts[${index}]`
    const plan = planContractChange(findSmartContract(store, dappId, contract.address), contract)
    if (!plan) continue
    const address = getAddress(contract.address)
    await atPath(label, at, async () => {
      if (plan.kind === 'whitelist') {
        await updateWhitelistedMethods(store, {
          dappId,
          address,
          whitelistedMethods: plan.whitelistedMethods,
        })
        return
      }
      if (plan.kind === 'replace') await deleteSmartContract(store, { dappId, address })
      await createSmartContract(store, {
        dappId,
        name: contract.name,
        address,
        abi: contract.abi,
        whitelistedMethods: plan.whitelistedMethods,
      })
    })
    const methods = plan.whitelistedMethods.join(', ') || 'none'
    change(
      plan.kind === 'create'
        ? `contract ${contract.name} (${address}) registered, whitelisted methods: ${methods}`
        : plan.kind === 'replace'
          ? `contract ${contract.name} (${address}) registered again with its new name or ABI, whitelisted methods: ${methods}`
          : `contract ${contract.name} (${address}) whitelisted methods set to ${methods}`,
    )
  }

  for (const webhook of desired.webhooks ?? []) {
    const current = listWebhooks(store, dappId).find((w) => w.webhookUrl === webhook.webhookUrl)
    const plan = planWebhookChange(current, webhook)
    if (!plan) continue
    if (plan.kind === 'active') {
      await setWebhookActive(store, { dappId, webhookId: current!.webhookId, active: plan.active })
      change(`webhook ${webhook.webhookUrl} ${plan.active ? 'activated' : 'deactivated'}`)
      continue
    }
    if (plan.kind === 'replace') await deleteWebhook(store, { dappId, webhookId: current!.webhookId })
    const created = await createWebhook(store, {
      dappId,
      webhookUrl: webhook.webhookUrl,
      requestType: plan.requestType,
    })
    if (!plan.active) await setWebhookActive(store, { dappId, webhookId: created.webhookId, active: false })
    change(
      `webhook ${webhook.webhookUrl} registered${plan.kind === 'replace' ? ' again' : ''} (${plan.requestType}${plan.active ? '' : ', inactive'})`,
    )
  }

  if (desired.policies) {
    const next = planPoliciesChange(dapp().policies, desired.policies, generateId)
    if (next) {
      const problem = checkPolicies(next)
      if (problem)
        throw new InvalidSetupError(
          `${label}: ${path}.policies would leave the dApp's window wrong: ${problem}`,
        )
      await setDappPolicies(store, dappId, next)
      change('policies set')
    }
  }

  if (desired.gasTanksEth && chain) {
    if (!dapp().paymasterId) await provisionGasTank(chain, store, dapp())
    const paymasterId = dapp().paymasterId as Address | null
    if (!paymasterId) throw new ChainError(`${named} has no gas tank: it could not be created on this chain`)
    for (const version of ENTRY_POINT_VERSIONS) {
      const amount = desired.gasTanksEth[version]
      if (amount === undefined) continue
      const current = await getGasTankBalance(chain, paymasterId, version)
      const plan = planBalanceChange(current, parseEther(amount))
      if (plan?.action === 'deposit') await depositToGasTank(chain, paymasterId, plan.wei, version)
      // The surplus goes back to the executor, which pays deposits.
      if (plan?.action === 'withdraw')
        await withdrawFromGasTank(chain, paymasterId, chain.executor.address, plan.wei, version)
      if (plan) change(`gas tank v${version} ${formatEther(current)} → ${amount} ETH`)
      // The setup decides this tank: the default deposit of a tank never funded must not come on top later.
      if (!(dapp().gasTanksFunded ?? []).includes(version)) await markGasTanksFunded(store, dappId, [version])
    }
  }
}

/**
 * Sets an address's ETH balance: exactly on a node with dev methods (anvil/hardhat `setBalance`, no transaction); on
 * other nodes a lower balance is topped up from the executor and a higher one is left (with a warning).
 */
async function applyAccount(
  chain: Chain,
  result: ApplySetupReturnType,
  account: SetupAccount,
): Promise<void> {
  const address = getAddress(account.address)
  const target = parseEther(account.balanceEth)
  const current = await chain.publicClient.getBalance({ address })
  if (current === target) return
  const prefix = chain.capabilities.devPrefix
  if (prefix) {
    await requestRpc(chain.publicClient, `${prefix}_setBalance`, [address, numberToHex(target)])
  } else if (current < target) {
    await fundEth(chain, address, target - current)
  } else {
    result.warnings.push(
      `account ${address} holds ${formatEther(current)} ETH, more than ${account.balanceEth}: this node has no dev methods to lower a balance`,
    )
    return
  }
  result.changes.push(`account ${address} ${formatEther(current)} → ${account.balanceEth} ETH`)
}

/** The chain a dApp or an account of the setup is on: the one it names, else the service's first. */
function chainOf(params: ApplySetupParameters, entry: { chainId?: number | undefined }): number {
  return entry.chainId ?? params.chains.chainIds[0] ?? 0
}

/** The account's dApps on a chain, by name (a name is the account's once per chain). */
function findDapps(params: ApplySetupParameters, chainId: number): Map<string, Dapp> {
  return new Map(
    listDapps(params.store, params.accountId)
      .filter((d) => d.chainId === chainId)
      .map((d) => [d.name, d]),
  )
}

/** A repository's refusal (a name taken, a method not in the ABI) names the entry of the file it came from. */
async function atPath<T>(label: string, path: string, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (err) {
    if (
      (err instanceof InvalidInputError || err instanceof ConflictError) &&
      !(err instanceof InvalidSetupError)
    )
      throw new InvalidSetupError(`${label}: ${path}: ${err.shortMessage}`, { cause: err })
    throw err
  }
}
