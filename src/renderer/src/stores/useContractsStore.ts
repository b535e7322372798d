import { create } from 'zustand'
import type { SmartContractView } from '../../../shared/api/smartContracts'
import { dashboardApi } from '../api/dashboard'
import { failed, type Loadable, loaded, loading } from './loadable'

type ContractsState = {
  /** Smart contracts per dApp apiKey. */
  byApiKey: Record<string, Loadable<SmartContractView[]>>
  load: (apiKey: string) => Promise<void>
  create: (
    apiKey: string,
    input: { name: string; address: string; abi: string; whitelistedMethods: string[] },
  ) => Promise<void>
  updateWhitelist: (apiKey: string, address: string, whitelistedMethods: string[]) => Promise<void>
  remove: (apiKey: string, address: string) => Promise<void>
}

export const useContractsStore = create<ContractsState>()((set, get) => {
  const put = (apiKey: string, value: Loadable<SmartContractView[]>) =>
    set((s) => ({ byApiKey: { ...s.byApiKey, [apiKey]: value } }))
  return {
    byApiKey: {},
    async load(apiKey) {
      put(apiKey, loading(get().byApiKey[apiKey]))
      try {
        put(apiKey, loaded(await dashboardApi.listSmartContracts(apiKey)))
      } catch (err) {
        put(apiKey, failed(get().byApiKey[apiKey], err))
      }
    },
    async create(apiKey, input) {
      await dashboardApi.createSmartContract(apiKey, input)
      await get().load(apiKey)
    },
    async updateWhitelist(apiKey, address, whitelistedMethods) {
      const updated = await dashboardApi.updateWhitelistedMethods(apiKey, address, whitelistedMethods)
      const current = get().byApiKey[apiKey]
      if (current?.data) {
        put(
          apiKey,
          loaded(current.data.map((c) => (c.address.toLowerCase() === address.toLowerCase() ? updated : c))),
        )
      } else await get().load(apiKey)
    },
    async remove(apiKey, address) {
      await dashboardApi.deleteSmartContract(apiKey, address)
      await get().load(apiKey)
    },
  }
})
