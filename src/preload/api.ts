import type { ServiceInfo } from '../shared/serviceInfo'

/** What the preload exposes as `window.opstation` (only inside the desktop app). */
export type OpstationDesktopApi = {
  getServerInfo: () => Promise<ServiceInfo & { authToken: string }>
  openDataFolder: () => Promise<string>
  openExternal: (url: string) => Promise<void>
}
