import { create } from 'zustand'
import type { DappPolicies, DappPoliciesPatch } from '../../../shared/api/dapps'
import { consoleApi } from '../api/console'
import { failed, type Loadable, loaded, loading } from './loadable'

type PoliciesState = {
  byApiKey: Record<string, Loadable<DappPolicies>>
  load: (apiKey: string) => Promise<void>
  save: (apiKey: string, policies: DappPoliciesPatch) => Promise<void>
}

export const usePoliciesStore = create<PoliciesState>()((set, get) => {
  const put = (apiKey: string, value: Loadable<DappPolicies>) =>
    set((s) => ({ byApiKey: { ...s.byApiKey, [apiKey]: value } }))
  return {
    byApiKey: {},
    async load(apiKey) {
      put(apiKey, loading(get().byApiKey[apiKey]))
      try {
        put(apiKey, loaded(await consoleApi.getPolicies(apiKey)))
      } catch (err) {
        put(apiKey, failed(get().byApiKey[apiKey], err))
      }
    },
    async save(apiKey, policies) {
      const saved = await consoleApi.updatePolicies(apiKey, policies)
      put(apiKey, loaded(saved))
    },
  }
})
