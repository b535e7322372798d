import { create } from 'zustand'
import type { GasTankView } from '../../../shared/api/gasTanks'
import type { EntryPointVersion } from '../../../shared/entryPointVersions'
import { consoleApi } from '../api/console'
import { failed, type Loadable, loaded, loading } from './loadable'

type GasTankState = {
  byApiKey: Record<string, Loadable<GasTankView>>
  /** A deposit or withdrawal in flight (it waits for the transaction). */
  pending: Record<string, 'deposit' | 'withdraw' | undefined>
  load: (apiKey: string) => Promise<void>
  change: (
    apiKey: string,
    action: 'deposit' | 'withdraw',
    amountWei: bigint,
    entryPointVersion: EntryPointVersion,
  ) => Promise<void>
}

export const useGasTankStore = create<GasTankState>()((set, get) => {
  const put = (apiKey: string, value: Loadable<GasTankView>) =>
    set((s) => ({ byApiKey: { ...s.byApiKey, [apiKey]: value } }))
  return {
    byApiKey: {},
    pending: {},
    async load(apiKey) {
      put(apiKey, loading(get().byApiKey[apiKey]))
      try {
        put(apiKey, loaded(await consoleApi.getGasTank(apiKey)))
      } catch (err) {
        put(apiKey, failed(get().byApiKey[apiKey], err))
      }
    },
    async change(apiKey, action, amountWei, entryPointVersion) {
      set((s) => ({ pending: { ...s.pending, [apiKey]: action } }))
      try {
        put(
          apiKey,
          loaded(
            await consoleApi.changeGasTank(apiKey, {
              action,
              amountWei: amountWei.toString(),
              entryPointVersion,
            }),
          ),
        )
      } finally {
        set((s) => ({ pending: { ...s.pending, [apiKey]: undefined } }))
      }
    },
  }
})
