import { readFileSync } from 'node:fs'
import path from 'node:path'
import { writeFileAtomicSync } from '../service/util/files/writeFileAtomic'

export const DESKTOP_SETTINGS_FILE = 'desktop.json'

export type WindowBounds = { x?: number; y?: number; width: number; height: number; maximized?: boolean }

/** What the desktop app remembers between starts, in `desktop.json` in the data folder (not the service's store). */
export type DesktopSettings = {
  /** The "still running in the background" notice was shown once. */
  backgroundNoticeShown?: boolean
  window?: WindowBounds
}

/** Reads the settings; a missing or unreadable file is an empty one (nothing in it is worth stopping a start). */
export function readDesktopSettings(dataDir: string): DesktopSettings {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path.join(dataDir, DESKTOP_SETTINGS_FILE), 'utf8'))
  } catch {
    return {}
  }
  if (!parsed || typeof parsed !== 'object') return {}
  const raw = parsed as Record<string, unknown>
  const settings: DesktopSettings = {}
  if (raw.backgroundNoticeShown === true) settings.backgroundNoticeShown = true
  const window = raw.window as Record<string, unknown> | undefined
  if (window && isSize(window.width) && isSize(window.height)) {
    settings.window = { width: window.width, height: window.height }
    if (Number.isInteger(window.x) && Number.isInteger(window.y)) {
      settings.window.x = window.x as number
      settings.window.y = window.y as number
    }
    if (window.maximized === true) settings.window.maximized = true
  }
  return settings
}

/** Writes the settings atomically (writeFileAtomicSync: a crash leaves the old file or the new one). */
export function writeDesktopSettings(dataDir: string, settings: DesktopSettings): void {
  const file = path.join(dataDir, DESKTOP_SETTINGS_FILE)
  try {
    writeFileAtomicSync(file, `${JSON.stringify(settings, null, 2)}\n`)
  } catch (err) {
    console.error(`opstation: could not save ${file}: ${(err as Error).message}`)
  }
}

function isSize(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 200 && (value as number) <= 20_000
}
