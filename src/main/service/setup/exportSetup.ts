import { type Address, formatEther } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import { type Chain, getGasTankBalance, listGasTankVersions } from '../chain'
import { listDapps } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { listSmartContracts } from '../store/smartContracts.repo'
import { listWebhooks } from '../store/webhooks.repo'
import type { FundedAccounts } from './fundedAccounts'
import type { SetupChains } from './setupChains'
import { API_KEY_PATTERN, type SetupFileInput } from './setupFileSchema'

export type ExportSetupParameters = {
  store: Store
  chains: SetupChains
  accountId: string
  fundedAccounts: FundedAccounts
}

type ExportedDapp = SetupFileInput['dapps'] extends (infer D)[] | undefined ? D : never
export type ExportedSetup = SetupFileInput & { dapps: ExportedDapp[] }

/**
 * The service's current setup in the setup file's format: every dApp of the account on the chains it runs with its
 * apiKey, contracts (ABIs as JSON), webhooks, policies (limits without their ids) and gas tank balances, the token
 * prices set (by address), and the accounts setups funded with what they hold now. Applied to a fresh service it
 * gives one that exports the same file. Without a chain, gas tanks and accounts are left out (they live on chain).
 * A service of several chains names them (`chains`) and each dApp's and account's chain; one of a single chain names
 * none, so its file applies to a service on another chain as before.
 */
export async function exportSetup(params: ExportSetupParameters): Promise<ExportedSetup> {
  const { store, chains } = params
  const several = chains.chainIds.length > 1
  const byAddress = (a: { address: string }, b: { address: string }) =>
    a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1
  const dapps: ExportedDapp[] = []
  const accounts: NonNullable<ExportedSetup['accounts']> = []
  for (const chainId of chains.chainIds) {
    const chain = chains.getChain(chainId)
    const onChain = listDapps(store, params.accountId).filter((d) => d.chainId === chainId)
    for (const { name, ...dapp } of await Promise.all(onChain.map((d) => exportDapp(store, chain, d))))
      dapps.push({ name, ...(several ? { chainId } : {}), ...dapp })
    if (!chain) continue
    const funded = params.fundedAccounts
      .list(chainId)
      .sort((a, b) => byAddress({ address: a }, { address: b }))
    for (const address of funded) {
      const balanceEth = formatEther(await chain.publicClient.getBalance({ address }))
      accounts.push({ address, balanceEth, ...(several ? { chainId } : {}) })
    }
  }
  return {
    version: 1,
    ...(several ? { chains: [...chains.chainIds] } : {}),
    dapps,
    tokenPrices: [...store.data.tokenPrices]
      .sort((a, b) => byAddress({ address: a.tokenAddress }, { address: b.tokenAddress }))
      .map((p) => ({ tokenAddress: p.tokenAddress, usdPrice: p.usdPrice, logoUrl: p.logoUrl })),
    accounts,
  }
}

async function exportDapp(store: Store, chain: Chain | undefined, dapp: Dapp): Promise<ExportedDapp> {
  const webhookUrls = new Set<string>()
  const paymasterId = dapp.paymasterId as Address | null
  return {
    name: dapp.name,
    // A key of an older shape cannot be fixed by a setup: another service gives the dApp a new one.
    ...(API_KEY_PATTERN.test(dapp.apiKey) ? { apiKey: dapp.apiKey } : {}),
    active: dapp.active,
    contracts: listSmartContracts(store, dapp.id).map((contract) => ({
      name: contract.name,
      address: contract.address,
      abi: JSON.parse(contract.abi) as Record<string, unknown>[],
      whitelistedMethods: [...contract.whitelistedMethods],
    })),
    // A URL registered twice is one webhook in a setup (found by its URL): the first one.
    webhooks: listWebhooks(store, dapp.id)
      .filter((w) => !webhookUrls.has(w.webhookUrl) && webhookUrls.add(w.webhookUrl))
      .map((w) => ({ webhookUrl: w.webhookUrl, requestType: w.requestType, active: w.active })),
    policies: {
      limits: dapp.policies.limits.map((limit) => ({
        type: limit.type,
        thresholdType: limit.thresholdType,
        threshold: limit.threshold,
        cycleDuration: { ...limit.cycleDuration },
        active: limit.active,
      })),
      validAfter: dapp.policies.validAfter,
      validUntil: dapp.policies.validUntil,
      blockWindow: dapp.policies.blockWindow && { ...dapp.policies.blockWindow },
      premiumPercentage: dapp.policies.premiumPercentage,
    },
    ...(chain && paymasterId
      ? {
          gasTanksEth: Object.fromEntries(
            await Promise.all(
              listGasTankVersions(chain).map(async (version) => [
                version,
                formatEther(await getGasTankBalance(chain, paymasterId, version)),
              ]),
            ),
          ),
        }
      : {}),
  }
}
