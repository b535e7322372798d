import { EventEmitter } from 'node:events'
import type { DesktopElectron } from '../../../src/main/desktop/electronApi'

/**
 * A fake `electron` module for running the desktop lifecycle (src/main/desktop/) under plain Node: the same calls,
 * recorded. Electron's binary cannot be downloaded everywhere the tests run.
 */
export type FakeElectron = ReturnType<typeof createFakeElectron>

type Bounds = { x: number; y: number; width: number; height: number }

export function createFakeElectron(options: { singleInstance?: boolean; messageBoxResponse?: number } = {}) {
  const record = {
    paths: {} as Record<string, string>,
    errorBoxes: [] as { title: string; content: string }[],
    messageBoxes: [] as Record<string, any>[],
    openedExternal: [] as string[],
    openedPaths: [] as string[],
    clipboard: [] as string[],
    notifications: [] as { title: string; body: string }[],
    ipcHandlers: new Map<string, (...args: any[]) => unknown>(),
    applicationMenu: undefined as FakeMenu | undefined,
    aboutPanel: undefined as Record<string, unknown> | undefined,
    windows: [] as FakeBrowserWindow[],
    trays: [] as FakeTray[],
    quitCalls: 0,
    exitCode: undefined as number | undefined,
    quitted: false,
  }

  class FakeEvent {
    defaultPrevented = false
    preventDefault() {
      this.defaultPrevented = true
    }
  }

  class FakeWebContents extends EventEmitter {
    windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
      this.windowOpenHandler = handler
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents()
    readonly options: Record<string, any>
    loadedUrl: string | undefined
    #visible = false
    #focused = false
    #minimized = false
    #maximized = false
    #destroyed = false
    #bounds: Bounds
    constructor(options: Record<string, any>) {
      super()
      this.options = options
      this.#bounds = { x: options.x ?? 100, y: options.y ?? 80, width: options.width, height: options.height }
      record.windows.push(this)
    }
    async loadURL(url: string) {
      this.loadedUrl = url
      setImmediate(() => this.emit('ready-to-show'))
    }
    show() {
      this.#visible = true
      this.#minimized = false
    }
    hide() {
      this.#visible = false
      this.#focused = false
    }
    focus() {
      this.#focused = true
    }
    isVisible() {
      return this.#visible
    }
    isFocused() {
      return this.#focused
    }
    minimize() {
      this.#minimized = true
      this.#focused = false
    }
    isMinimized() {
      return this.#minimized
    }
    restore() {
      this.#minimized = false
    }
    maximize() {
      this.#maximized = true
    }
    isMaximized() {
      return this.#maximized
    }
    getBounds() {
      return { ...this.#bounds }
    }
    getNormalBounds() {
      return { ...this.#bounds }
    }
    setBounds(bounds: Partial<Bounds>) {
      this.#bounds = { ...this.#bounds, ...bounds }
    }
    isDestroyed() {
      return this.#destroyed
    }
    destroy() {
      this.#destroyed = true
      this.emit('closed')
    }
    /** As the user closing the window: 'close' may be prevented. */
    close() {
      const event = new FakeEvent()
      this.emit('close', event)
      if (!event.defaultPrevented) this.destroy()
    }
  }

  class FakeMenu {
    constructor(readonly template: any[]) {}
    /** The item with this label, searched through submenus. */
    item(label: string): any {
      const search = (items: any[]): any => {
        for (const item of items) {
          if (item.label === label) return item
          const inner = Array.isArray(item.submenu) ? search(item.submenu) : undefined
          if (inner) return inner
        }
        return undefined
      }
      return search(this.template)
    }
  }

  class FakeTray extends EventEmitter {
    toolTip = ''
    menu: FakeMenu | undefined
    destroyed = false
    constructor(readonly image: unknown) {
      super()
      record.trays.push(this)
    }
    setToolTip(text: string) {
      this.toolTip = text
    }
    setContextMenu(menu: FakeMenu) {
      this.menu = menu
    }
    destroy() {
      this.destroyed = true
    }
  }

  class FakeNotification {
    static isSupported() {
      return true
    }
    constructor(readonly options: { title: string; body: string }) {}
    show() {
      record.notifications.push(this.options)
    }
  }

  const image = { isEmpty: () => false, resize: () => image }

  const app = Object.assign(new EventEmitter(), {
    setPath(name: string, value: string) {
      record.paths[name] = value
    },
    getPath(name: string) {
      return record.paths[name] ?? ''
    },
    requestSingleInstanceLock() {
      return options.singleInstance ?? true
    },
    whenReady() {
      return Promise.resolve()
    },
    setAboutPanelOptions(panel: Record<string, unknown>) {
      record.aboutPanel = panel
    },
    /** As Electron: 'before-quit' (preventable), then every window closes, then the app quits. */
    quit() {
      record.quitCalls++
      if (record.quitted) return
      const event = new FakeEvent()
      app.emit('before-quit', event)
      if (event.defaultPrevented) return
      for (const window of record.windows) if (!window.isDestroyed()) window.close()
      if (record.windows.some((window) => !window.isDestroyed())) return
      record.quitted = true
      app.emit('will-quit', new FakeEvent())
      app.emit('quit')
    },
    exit(code = 0) {
      record.exitCode = code
      record.quitted = true
    },
  })

  const electron = {
    app,
    BrowserWindow: FakeBrowserWindow,
    clipboard: {
      writeText(text: string) {
        record.clipboard.push(text)
      },
    },
    dialog: {
      showErrorBox(title: string, content: string) {
        record.errorBoxes.push({ title, content })
      },
      async showMessageBox(...args: any[]) {
        const box = args.length > 1 ? args[1] : args[0]
        record.messageBoxes.push(box)
        return { response: options.messageBoxResponse ?? 0, checkboxChecked: false }
      },
    },
    ipcMain: {
      handle(channel: string, handler: (...args: any[]) => unknown) {
        record.ipcHandlers.set(channel, handler)
      },
    },
    Menu: {
      buildFromTemplate: (template: any[]) => new FakeMenu(template),
      setApplicationMenu(menu: FakeMenu) {
        record.applicationMenu = menu
      },
    },
    Notification: FakeNotification,
    nativeImage: {
      createFromPath: () => image,
      createFromBitmap: () => image,
      createEmpty: () => image,
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    shell: {
      async openExternal(url: string) {
        record.openedExternal.push(url)
      },
      async openPath(target: string) {
        record.openedPaths.push(target)
        return ''
      },
    },
    Tray: FakeTray,
  }

  return {
    electron: electron as unknown as DesktopElectron,
    app,
    record,
    /** The one window (throws when there is none). */
    window(): FakeBrowserWindow {
      const window = record.windows.at(-1)
      if (!window) throw new Error('no window was created')
      return window
    },
    tray(): FakeTray {
      const tray = record.trays.at(-1)
      if (!tray) throw new Error('no tray icon was created')
      return tray
    },
  }
}
