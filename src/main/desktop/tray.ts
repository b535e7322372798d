import type { MenuItemConstructorOptions, Tray } from 'electron'
import type { ServiceInfo } from '../../shared/serviceInfo'
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
    const chains = describeTrayChains(info, { messages: false })
    tray.setToolTip(`Opstation ${info.version}\n${status}\n${chains.join('\n')}`)
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
    ...describeTrayChains(info, { messages: true }).map((label) => ({ label, enabled: false })),
    { type: 'separator' },
    { label: 'Open Console', click: () => actions.showWindow() },
    { label: 'Open Console in Browser', click: () => void electron.shell.openExternal(info.consoleLoginUrl) },
    {
      label: 'Copy URL',
      submenu: [
        copy('Bundler URL', info.bundlerUrl),
        copy('Paymaster URL (template)', info.paymasterUrlTemplate),
        copy('Chain RPC URL', info.rpcUrl),
        // A service of several chains: each other chain's URLs too (the ones above are the first chain's).
        ...info.chains
          .slice(1)
          .flatMap((chain) => [
            copy(`Bundler URL (chain ${chain.chainId})`, chain.bundlerUrl),
            copy(`Paymaster URL template (chain ${chain.chainId})`, chain.paymasterUrlTemplate),
            copy(`Chain RPC URL (chain ${chain.chainId})`, chain.rpcUrl),
          ]),
        copy('Dashboard API URL', info.dashboardUrl),
        copy('Console URL', info.consoleUrl),
        copy('Console Login URL (signs in)', info.consoleLoginUrl),
      ],
    },
    { type: 'separator' },
    { label: 'Quit Opstation', click: () => actions.quit() },
  ]
}

/**
 * The tray's chain lines: `Chain 31337: ready` for each chain the service runs (the first chain's with its last
 * message when `messages`: the service keeps messages for that chain only), or the line of a service without a chain.
 */
export function describeTrayChains(
  info: Pick<ServiceInfo, 'chainId' | 'chain' | 'chains'>,
  { messages }: { messages: boolean },
): string[] {
  if (info.chain.kind === 'none')
    return [messages ? 'No chain (started with --no-chain)' : 'No chain (--no-chain)']
  const first = `Chain ${info.chainId}: ${info.chain.state}${messages && info.chain.message ? ` (${info.chain.message})` : ''}`
  return [first, ...info.chains.slice(1).map((chain) => `Chain ${chain.chainId}: ${chain.state}`)]
}
