import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { appMenuTemplate } from '../../../src/main/desktop/appMenu'
import {
  DESKTOP_SETTINGS_FILE,
  readDesktopSettings,
  writeDesktopSettings,
} from '../../../src/main/desktop/desktopSettings'
import { makeTempDir } from '../../helpers/makeTempDir'

describe('desktop.json', () => {
  it('round-trips the notice flag and the window bounds', async () => {
    const dir = await makeTempDir('opstation-desktop-settings-')
    expect(readDesktopSettings(dir)).toEqual({})
    const settings = {
      backgroundNoticeShown: true,
      window: { x: -1200, y: 40, width: 1100, height: 760, maximized: true },
    }
    writeDesktopSettings(dir, settings)
    expect(readDesktopSettings(dir)).toEqual(settings)
    expect(JSON.parse(await readFile(path.join(dir, DESKTOP_SETTINGS_FILE), 'utf8'))).toEqual(settings)
  })

  it('reads an unreadable or odd file as empty, keeping only sane values', async () => {
    const dir = await makeTempDir('opstation-desktop-settings-')
    await writeFile(path.join(dir, DESKTOP_SETTINGS_FILE), '{ nope')
    expect(readDesktopSettings(dir)).toEqual({})
    await writeFile(
      path.join(dir, DESKTOP_SETTINGS_FILE),
      JSON.stringify({ backgroundNoticeShown: 'yes', window: { width: 5, height: 700, x: 1 } }),
    )
    expect(readDesktopSettings(dir)).toEqual({})
    await writeFile(
      path.join(dir, DESKTOP_SETTINGS_FILE),
      JSON.stringify({ window: { width: 900, height: 700, x: 1.5, y: 2 } }),
    )
    expect(readDesktopSettings(dir)).toEqual({ window: { width: 900, height: 700 } })
  })
})

describe('the application menu', () => {
  const actions = { showAbout: () => {}, openDataFolder: () => {} }
  it("has the platform's usual roles (the app menu on macOS only) and About", () => {
    const roles = (platform: NodeJS.Platform) => appMenuTemplate(platform, actions).map((item) => item.role)
    expect(roles('linux')).toEqual(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help'])
    expect(roles('darwin')).toEqual(['appMenu', 'fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help'])
    const help = appMenuTemplate('win32', actions).at(-1)?.submenu as { label?: string }[]
    expect(help.map((item) => item.label)).toEqual(['About Opstation'])
  })
})
