import { create } from 'zustand'
import type { PaymasterView } from '../../../shared/api/dapps'
import { consoleApi } from '../api/console'
import { dashboardApi } from '../api/dashboard'
import { failed, idle, type Loadable, loaded, loading } from './loadable'

type PaymastersState = {
  list: Loadable<PaymasterView[]>
  /** The dApp the Contracts / Webhooks / Sandbox screens work on. */
  selectedApiKey: string | null
  load: () => Promise<void>
  /** Creates a dApp and returns its apiKey; throws with the server's message. */
  create: (input: { name: string; chainId: number; version: string }) => Promise<string>
  select: (apiKey: string | null) => void
  /** Activates or deactivates a dApp (an inactive dApp sponsors nothing); throws with the server's message. */
  setActive: (apiKey: string, active: boolean) => Promise<void>
}

const SELECTED_KEY = 'opstation.selectedApiKey'

export const usePaymastersStore = create<PaymastersState>()((set, get) => ({
  list: idle(),
  selectedApiKey: sessionStorage.getItem(SELECTED_KEY),

  async load() {
    set({ list: loading(get().list) })
    try {
      const items = await dashboardApi.listPaymasters()
      set({ list: loaded(items) })
      const selected = get().selectedApiKey
      if (!selected || !items.some((p) => p.apiKey === selected)) get().select(items[0]?.apiKey ?? null)
    } catch (err) {
      set({ list: failed(get().list, err) })
    }
  },

  async create(input) {
    const created = await dashboardApi.createPaymaster(input)
    await get().load()
    get().select(created.apiKey)
    return created.apiKey
  },

  async setActive(apiKey, active) {
    const updated = await consoleApi.setDappActive(apiKey, active)
    set((s) => ({
      list: {
        ...s.list,
        data: s.list.data?.map((p) => (p.apiKey === apiKey ? { ...p, active: updated.active } : p)),
      },
    }))
  },

  select(apiKey) {
    if (apiKey) sessionStorage.setItem(SELECTED_KEY, apiKey)
    else sessionStorage.removeItem(SELECTED_KEY)
    set({ selectedApiKey: apiKey })
  },
}))

export function usePaymaster(apiKey: string | null | undefined): PaymasterView | undefined {
  return usePaymastersStore((s) => s.list.data?.find((p) => p.apiKey === apiKey))
}
