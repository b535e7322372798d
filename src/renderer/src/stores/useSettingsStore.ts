import { create } from 'zustand'
import { consoleApi } from '../api/console'
import { failed, idle, type Loadable, loaded, loading } from './loadable'

export type ServiceSettings = {
  rpcUrl?: string | null
  chainKind?: 'embedded' | 'external' | 'none'
  bundlingMode?: 'auto' | 'interval' | 'manual'
  unsafe?: boolean
  webhookTimeoutMs?: number
  dataDir?: string
  [key: string]: unknown
}

type SettingsState = {
  settings: Loadable<ServiceSettings>
  load: () => Promise<void>
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  settings: idle(),
  async load() {
    set({ settings: loading(get().settings) })
    try {
      set({ settings: loaded((await consoleApi.getSettings()) as ServiceSettings) })
    } catch (err) {
      set({ settings: failed(get().settings, err) })
    }
  },
}))
