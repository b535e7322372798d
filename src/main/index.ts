import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, ipcMain, shell } from 'electron'
import { defaultDataDir } from './service/config'
import { createService, type Service } from './service/createService'
import { AppError } from './service/errors'

/**
 * Electron lifecycle only: single instance, start the service in-process, one window on the console
 * URL (served by the service itself), stop the service on quit. Everything else lives in service/.
 */
const here = path.dirname(fileURLToPath(import.meta.url))
let service: Service | undefined
let mainWindow: BrowserWindow | undefined

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.whenReady().then(start, fail)
  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', (event) => {
    if (!service) return
    event.preventDefault()
    const closing = service
    service = undefined
    closing.close().finally(() => app.quit())
  })
}

async function start(): Promise<void> {
  // Tests and throwaway profiles point the data folder elsewhere (as Bruno does); default is userData.
  const dataDir = process.env.OPSTATION_DATA_DIR ?? defaultDataDir()
  app.setPath('userData', dataDir)
  // An unreadable store stops the start unless OPSTATION_RESET_STORE=1 (the CLI's --reset-store) says to keep it aside.
  const resetStore = /^(1|true|yes)$/i.test(process.env.OPSTATION_RESET_STORE?.trim() ?? '')
  service = await createService({
    dataDir,
    port: Number(process.env.OPSTATION_PORT ?? 4337),
    resetStore,
  }).catch(async (err) => {
    // The default port may be taken by a headless instance on another data folder: take any free one.
    if (err instanceof AppError && /already in use/.test(err.shortMessage))
      return createService({ dataDir, port: 0, resetStore })
    throw err
  })
  registerIpc(service)
  // The login URL signs the window in (a session cookie), as a browser opening the printed URL is.
  mainWindow = createWindow(service.info().consoleLoginUrl)
}

function createWindow(url: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Opstation',
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  // Links to anything but the console open in the user's browser, never in the app window.
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:\/\//.test(target)) void shell.openExternal(target)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event, target) => {
    if (!target.startsWith(url)) event.preventDefault()
  })
  void window.loadURL(url)
  return window
}

function registerIpc(running: Service): void {
  ipcMain.handle('server:getInfo', () => ({ ...running.info(), authToken: running.authToken() }))
  ipcMain.handle('app:openDataFolder', () => shell.openPath(running.config.dataDir))
  ipcMain.handle('app:openExternal', (_event, target: unknown) => {
    if (typeof target === 'string' && /^https?:\/\//.test(target)) return shell.openExternal(target)
    return undefined
  })
}

function fail(err: unknown): void {
  const message = err instanceof AppError ? err.shortMessage : String(err)
  console.error(`opstation: ${message}`)
  app.exit(1)
}
