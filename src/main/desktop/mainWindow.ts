import type { BrowserWindow, Rectangle } from 'electron'
import type { WindowBounds } from './desktopSettings'
import type { DesktopElectron } from './electronApi'

export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 }

export type MainWindowOptions = {
  /** The console login URL: it signs the window in (a session cookie), as a browser opening the printed URL is. */
  url: string
  preloadPath: string
  /** Where the window was last time (desktop.json); a position no display shows any more is dropped. */
  bounds?: WindowBounds
}

/** The one window, on the console the service serves. Links elsewhere open in the user's browser. */
export function createMainWindow(
  electron: Pick<DesktopElectron, 'BrowserWindow' | 'screen' | 'shell'>,
  options: MainWindowOptions,
): BrowserWindow {
  const bounds = visibleBounds(electron, options.bounds)
  const window = new electron.BrowserWindow({
    ...DEFAULT_WINDOW_SIZE,
    ...bounds,
    show: false,
    title: 'Opstation',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  })
  window.once('ready-to-show', () => {
    if (options.bounds?.maximized) window.maximize()
    window.show()
  })
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (/^https?:\/\//.test(target)) void electron.shell.openExternal(target)
    return { action: 'deny' }
  })
  const origin = new URL(options.url).origin
  window.webContents.on('will-navigate', (event, target) => {
    if (!target.startsWith(`${origin}/console/`)) event.preventDefault()
  })
  void window.loadURL(options.url)
  return window
}

/** The window's size and place to remember (the normal bounds when maximized). */
export function windowBoundsOf(window: BrowserWindow): WindowBounds {
  const maximized = window.isMaximized()
  const { x, y, width, height } = maximized ? window.getNormalBounds() : window.getBounds()
  return { x, y, width, height, ...(maximized ? { maximized: true } : {}) }
}

function visibleBounds(
  electron: Pick<DesktopElectron, 'screen'>,
  bounds: WindowBounds | undefined,
): Partial<Rectangle> {
  if (!bounds) return {}
  const { width, height, x, y } = bounds
  if (x === undefined || y === undefined) return { width, height }
  const onScreen = electron.screen.getAllDisplays().some(({ workArea: area }) => {
    // At least a 100×50 corner of the title bar area must be on a display.
    return (
      x + 100 > area.x && x < area.x + area.width - 100 && y + 50 > area.y && y < area.y + area.height - 50
    )
  })
  return onScreen ? { x, y, width, height } : { width, height }
}
