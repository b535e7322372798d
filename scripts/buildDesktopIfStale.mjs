// Builds main, preload and the console (`electron-vite build`, then publishConsole: what `npm run build` does after
// its typecheck) when out/ is missing or older than its sources. Returns 'fresh' or 'built'; throws when the build
// fails. Used by the desktop packaging test and by `npm test`, which builds out/ once before the steps that read it
// run side by side (the console e2e tests serve out/renderer meanwhile).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { releaseLockDir, takeLockDirSync } from './lib/lockDir.mjs'
import { newestMtime } from './newestMtime.mjs'
import { publishConsole } from './publishConsole.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUTPUTS = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']
const SOURCE_DIRS = ['src/main', 'src/preload', 'src/renderer', 'src/shared']
const SOURCE_FILES = ['electron.vite.config.ts', 'vite.renderer.config.ts']

/** The folders of the desktop build in out/, as electron-vite and publishConsole leave them. */
export const DESKTOP_BUILD = {
  main: path.join(root, 'out', 'main'),
  preload: path.join(root, 'out', 'preload'),
  renderer: path.join(root, 'out', 'renderer'),
}

/** Whether out/ holds a desktop build newer than every source it is built from. */
export function isDesktopBuildFresh() {
  const sources = Math.max(
    ...SOURCE_DIRS.map((dir) => newestMtime(path.join(root, dir))),
    ...SOURCE_FILES.map((file) => statSync(path.join(root, file)).mtimeMs),
  )
  return OUTPUTS.map((file) => path.join(root, file)).every(
    (file) => existsSync(file) && statSync(file).mtimeMs >= sources,
  )
}

/** Held while one process checks and builds out/: another caller (the packaging test beside npm test's build) waits. */
const BUILD_LOCK = path.join(root, 'out', '.desktop-build-lock')

export function buildDesktopIfStale() {
  mkdirSync(path.dirname(BUILD_LOCK), { recursive: true })
  takeLockDirSync(BUILD_LOCK)
  try {
    return buildUnlessFresh()
  } finally {
    releaseLockDir(BUILD_LOCK)
  }
}

function buildUnlessFresh() {
  if (isDesktopBuildFresh()) return 'fresh'
  const electronVite = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const built = spawnSync(process.execPath, [electronVite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    encoding: 'utf8',
  })
  if (built.status !== 0) throw new Error(`electron-vite build failed:\n${built.stderr}`)
  publishConsole()
  return 'built'
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildDesktopIfStale()
