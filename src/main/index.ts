import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  ipcMain,
  Menu,
  Notification,
  nativeImage,
  screen,
  shell,
  Tray,
} from 'electron'
import { runDesktop } from './desktop/runDesktop'

/**
 * Electron entry: hands the electron API to the desktop lifecycle (src/main/desktop/, which tests run under plain
 * Node with a fake electron). The service itself lives in service/ and never imports electron.
 */
const here = path.dirname(fileURLToPath(import.meta.url))

runDesktop({
  electron: {
    app,
    BrowserWindow,
    clipboard,
    dialog,
    ipcMain,
    Menu,
    Notification,
    nativeImage,
    screen,
    shell,
    Tray,
  },
  argv: process.argv,
  env: process.env,
  defaultApp: process.defaultApp === true,
  preloadPath: path.join(here, '../preload/index.cjs'),
})
