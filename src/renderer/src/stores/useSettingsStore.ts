import { create } from 'zustand'
import type { SettingsPatch, SettingsView } from '../../../shared/api/settings'
import { consoleApi } from '../api/console'
import { failed, idle, type Loadable, loaded, loading } from './loadable'

type SettingsState = {
  settings: Loadable<SettingsView>
  load: () => Promise<void>
  /** Saves a change; throws with the server's message. */
  save: (patch: SettingsPatch) => Promise<void>
}

export const useSettingsStore = create<SettingsState>()((set, get) => ({
  settings: idle(),
  async load() {
    set({ settings: loading(get().settings) })
    try {
      set({ settings: loaded(await consoleApi.getSettings()) })
    } catch (err) {
      set({ settings: failed(get().settings, err) })
    }
  },
  async save(patch) {
    set({ settings: loaded(await consoleApi.updateSettings(patch)) })
  },
}))
