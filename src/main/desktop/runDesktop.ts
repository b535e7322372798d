import { mkdirSync } from 'node:fs'
import type { BrowserWindow } from 'electron'
import { UsageError } from '../cli'
import type { ServiceConfigInput } from '../service/config'
import { createService as createServiceDefault, type Service } from '../service/createService'
import { readPackageVersion } from '../service/util/packageRoot'
import { appMenuTemplate, showAboutDialog } from './appMenu'
import { describeEmbeddedChain, findBundledAnvil } from './bundledAnvil'
import { readDesktopConfig } from './desktopConfig'
import { type DesktopSettings, readDesktopSettings, writeDesktopSettings } from './desktopSettings'
import type { DesktopElectron } from './electronApi'
import { createMainWindow, windowBoundsOf } from './mainWindow'
import { type StartupContext, showStartupError } from './startupErrors'
import { createDesktopTray, type DesktopTray } from './tray'

/** How long quit waits for the service to stop (store flushed, chain state dumped) before exiting anyway. */
export const QUIT_TIMEOUT_MS = 10_000

export type RunDesktopOptions = {
  electron: DesktopElectron
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  /** Electron's process.defaultApp: an unpackaged app, whose folder is argv[1]. */
  defaultApp: boolean
  preloadPath: string
  /** Electron's process.resourcesPath: a package's anvil is in its anvil/ folder (src/main/desktop/bundledAnvil.ts). */
  resourcesPath?: string
  platform?: NodeJS.Platform
  quitTimeoutMs?: number
  createService?: (input: ServiceConfigInput) => Promise<Service>
}

export type Desktop = {
  /** Settles once start-up ended: the service running, or the error told and the app exiting. */
  started: Promise<void>
  service: () => Service | undefined
  window: () => BrowserWindow | undefined
  tray: () => DesktopTray | undefined
  /** Settles once quit has stopped the service (or given up waiting). */
  stopped: Promise<void>
}

/**
 * The Electron lifecycle: one instance per data folder, the service in-process on the configured port (the same
 * flags as `opstation serve`), one window on its console, a tray icon. Closing the window leaves the service
 * running; quitting stops it (with a time-out). Start-up errors are told in a native dialog.
 */
export function runDesktop(options: RunDesktopOptions): Desktop {
  const { electron } = options
  const { app, dialog, Menu, Notification, shell } = electron
  const platform = options.platform ?? process.platform
  const quitTimeoutMs = options.quitTimeoutMs ?? QUIT_TIMEOUT_MS
  const createService = options.createService ?? createServiceDefault

  let service: Service | undefined
  let window: BrowserWindow | undefined
  let tray: DesktopTray | undefined
  let settings: DesktopSettings = {}
  let quitting = false
  let markStopped: () => void = () => {}
  const stopped = new Promise<void>((resolve) => {
    markStopped = resolve
  })
  const desktop = (started: Promise<void>): Desktop => ({
    started,
    service: () => service,
    window: () => window,
    tray: () => tray,
    stopped,
  })

  async function failStart(err: unknown, context: StartupContext): Promise<void> {
    await showStartupError(electron, err, context).catch((dialogErr) => {
      console.error(`opstation: could not show the start-up error: ${(dialogErr as Error).message}`)
    })
    markStopped()
    app.exit(err instanceof UsageError ? 2 : 1)
  }

  let config: ServiceConfigInput
  try {
    config = readDesktopConfig(options.argv, options.env, options.defaultApp)
  } catch (err) {
    return desktop(app.whenReady().then(() => failStart(err, {})))
  }
  // A package runs the anvil it carries, unless --anvil-path names another.
  config.anvilPath ??= findBundledAnvil(options.resourcesPath ?? process.resourcesPath, platform)
  const dataDir = config.dataDir
  try {
    // setPath and the single-instance lock need the folder to exist.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  } catch (err) {
    return desktop(app.whenReady().then(() => failStart(err, { dataDir })))
  }
  // Chromium's profile lives in the data folder, and the single-instance lock is per profile: one desktop app per
  // data folder (a second start on the same folder focuses the first, another --data-dir runs beside it).
  app.setPath('userData', dataDir)
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    markStopped()
    return desktop(Promise.resolve())
  }

  const showWindow = () => {
    if (!window || window.isDestroyed()) return
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }
  const rememberWindow = () => {
    if (!window || window.isDestroyed()) return
    settings.window = windowBoundsOf(window)
    writeDesktopSettings(dataDir, settings)
  }

  app.on('second-instance', showWindow)
  app.on('activate', showWindow)
  // The service keeps running without a window: only quit (tray, menu, Cmd-Q) ends the app.
  app.on('window-all-closed', () => {})
  app.on('before-quit', (event) => {
    quitting = true
    rememberWindow()
    if (!service) return
    event.preventDefault()
    const closing = service
    service = undefined
    tray?.destroy()
    tray = undefined
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), quitTimeoutMs)
    })
    const closed = closing.close().then(
      () => 'closed' as const,
      (err) => {
        console.error(`opstation: error while stopping the service: ${(err as Error).message}`)
        return 'closed' as const
      },
    )
    void Promise.race([closed, timedOut]).then((outcome) => {
      clearTimeout(timer)
      markStopped()
      if (outcome === 'timeout') {
        console.error(`opstation: the service did not stop within ${quitTimeoutMs / 1000} s; exiting anyway`)
        app.exit(1)
      } else app.quit()
    })
  })

  const showBackgroundNotice = () => {
    if (settings.backgroundNoticeShown) return
    settings.backgroundNoticeShown = true
    writeDesktopSettings(dataDir, settings)
    const title = 'Opstation is still running'
    const body =
      'The gas service keeps serving in the background. Open the console or quit from the Opstation icon in the tray (menu bar).'
    if (Notification.isSupported()) new Notification({ title, body }).show()
    else void dialog.showMessageBox({ type: 'info', title: 'Opstation', message: title, detail: body })
  }

  const start = async () => {
    const version = readPackageVersion()
    app.setAboutPanelOptions({ applicationName: 'Opstation', applicationVersion: version })
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        appMenuTemplate(platform, {
          showAbout: () =>
            void showAboutDialog(electron, {
              version,
              dataDir,
              dashboardUrl: service?.info().dashboardUrl,
              embeddedChain: describeEmbeddedChain(platform),
            }),
          openDataFolder: () => void shell.openPath(dataDir),
        }),
      ),
    )
    const running = await createService(config)
    if (quitting) {
      // Quit was asked for during start-up (before the service existed to stop).
      await running.close()
      markStopped()
      return
    }
    service = running
    registerIpc(electron, running)
    settings = readDesktopSettings(dataDir)
    window = createMainWindow(electron, {
      url: running.info().consoleLoginUrl,
      preloadPath: options.preloadPath,
      bounds: settings.window,
    })
    window.on('close', (event) => {
      rememberWindow()
      if (quitting) return
      event.preventDefault()
      window?.hide()
      showBackgroundNotice()
    })
    tray = createDesktopTray(electron, running, { showWindow, quit: () => app.quit() })
  }

  return desktop(
    app
      .whenReady()
      .then(start)
      .catch((err) => failStart(err, { dataDir, host: config.host, port: config.port })),
  )
}

function registerIpc(electron: Pick<DesktopElectron, 'ipcMain' | 'shell'>, running: Service): void {
  const { ipcMain, shell } = electron
  ipcMain.handle('server:getInfo', () => ({ ...running.info(), authToken: running.authToken() }))
  ipcMain.handle('app:openDataFolder', () => shell.openPath(running.config.dataDir))
  ipcMain.handle('app:openExternal', (_event, target: unknown) => {
    if (typeof target === 'string' && /^https?:\/\//.test(target)) return shell.openExternal(target)
    return undefined
  })
}
