import type * as Electron from 'electron'

/**
 * The part of the `electron` module the desktop lifecycle uses. The lifecycle takes it as a parameter, so tests run
 * it under plain Node with a fake (test/integration/desktop/fakeElectron.ts); only src/main/index.ts imports electron.
 */
export type DesktopElectron = Pick<
  typeof Electron,
  | 'app'
  | 'BrowserWindow'
  | 'clipboard'
  | 'dialog'
  | 'ipcMain'
  | 'Menu'
  | 'nativeImage'
  | 'Notification'
  | 'screen'
  | 'shell'
  | 'Tray'
>
