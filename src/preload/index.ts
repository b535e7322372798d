import { contextBridge, ipcRenderer } from 'electron'
import type { OpstationDesktopApi } from './api'

/** A closed, typed API: three desktop jobs, no generic channel access. */
const api: OpstationDesktopApi = {
  getServerInfo: () => ipcRenderer.invoke('server:getInfo'),
  openDataFolder: () => ipcRenderer.invoke('app:openDataFolder'),
  openExternal: (url: string) => ipcRenderer.invoke('app:openExternal', url),
}

contextBridge.exposeInMainWorld('opstation', api)
