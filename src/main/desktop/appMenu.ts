import type { MenuItemConstructorOptions } from 'electron'
import type { DesktopElectron } from './electronApi'

export type AppMenuActions = { showAbout: () => void; openDataFolder: () => void }

/** The application menu: the platform's usual roles, plus the data folder and About. */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  actions: AppMenuActions,
): MenuItemConstructorOptions[] {
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    {
      role: 'fileMenu',
      submenu: [
        { label: 'Open Data Folder', click: () => actions.openDataFolder() },
        { type: 'separator' },
        platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'About Opstation', click: () => actions.showAbout() }] },
  ]
}

export type AboutInfo = { version: string; dataDir: string; dashboardUrl?: string; embeddedChain?: string }

/** About Opstation: the version, the runtime and where the service is. */
export function showAboutDialog(
  electron: Pick<DesktopElectron, 'dialog'>,
  about: AboutInfo,
): Promise<unknown> {
  return electron.dialog.showMessageBox({
    type: 'info',
    title: 'About Opstation',
    message: `Opstation ${about.version}`,
    detail: [
      'Local ERC-4337 gas service and operator console.',
      `Electron ${process.versions.electron ?? '-'}, Node ${process.versions.node}`,
      `Data folder: ${about.dataDir}`,
      ...(about.dashboardUrl ? [`Service: ${about.dashboardUrl}`] : []),
      ...(about.embeddedChain ? [about.embeddedChain] : []),
    ].join('\n'),
    buttons: ['OK'],
  })
}
