import type { MenuItemConstructorOptions, Tray } from 'electron'
import type { Service } from '../service/createService'
import type { DesktopElectron } from './electronApi'
import { createTrayIcon } from './trayIcon'

export type DesktopTray = { tray: Tray; refresh: () => void; destroy: () => void }

export type DesktopTrayActions = { showWindow: () => void; quit: () => void }

/**
 * The tray icon: the service's status, its URLs to copy, the console, and quit. The window can be closed while
 * the service keeps running; this is the way back to it.
 */
export function createDesktopTray(
  electron: Pick<DesktopElectron, 'Tray' | 'Menu' | 'clipboard' | 'nativeImage' | 'shell'>,
  service: Service,
  actions: DesktopTrayActions,
): DesktopTray {
  const tray = new electron.Tray(createTrayIcon(electron))
  const refresh = () => {
    const info = service.info()
    const status = `Running on ${info.dashboardUrl}`
    const chain =
      info.chain.kind === 'none' ? 'No chain (--no-chain)' : `Chain ${info.chainId}: ${info.chain.state}`
    tray.setToolTip(`Opstation ${info.version}\n${status}\n${chain}`)
    tray.setContextMenu(electron.Menu.buildFromTemplate(trayMenuTemplate(electron, service, actions)))
  }
  tray.on('click', () => actions.showWindow())
  const unsubscribe = service.events.on('chain.status', refresh)
  refresh()
  return {
    tray,
    refresh,
    destroy: () => {
      unsubscribe()
      tray.destroy()
    },
  }
}

export function trayMenuTemplate(
  electron: Pick<DesktopElectron, 'clipboard' | 'shell'>,
  service: Service,
  actions: DesktopTrayActions,
): MenuItemConstructorOptions[] {
  const info = service.info()
  const copy = (label: string, text: string | null): MenuItemConstructorOptions => ({
    label,
    enabled: text !== null,
    click: () => {
      if (text !== null) electron.clipboard.writeText(text)
    },
  })
  return [
    { label: `Opstation ${info.version}: running on ${info.dashboardUrl}`, enabled: false },
    {
      label:
        info.chain.kind === 'none'
          ? 'No chain (started with --no-chain)'
          : `Chain ${info.chainId}: ${info.chain.state}${info.chain.message ? ` (${info.chain.message})` : ''}`,
      enabled: false,
    },
    { type: 'separator' },
    { label: 'Open Console', click: () => actions.showWindow() },
    { label: 'Open Console in Browser', click: () => void electron.shell.openExternal(info.consoleLoginUrl) },
    {
      label: 'Copy URL',
      submenu: [
        copy('Bundler URL', info.bundlerUrl),
        copy('Paymaster URL (template)', info.paymasterUrlTemplate),
        copy('Chain RPC URL', info.rpcUrl),
        copy('Dashboard API URL', info.dashboardUrl),
        copy('Console URL', info.consoleUrl),
        copy('Console Login URL (signs in)', info.consoleLoginUrl),
      ],
    },
    { type: 'separator' },
    { label: 'Quit Opstation', click: () => actions.quit() },
  ]
}
