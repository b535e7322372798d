// `npm start`: the desktop app where Electron can run; otherwise, in one line, why not, and the same
// service headless (printing its console URL) instead of failing.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { stopWhenParentExits } from '../bin/stopWhenParentExits.mjs'
import { buildConsoleIfStale } from './buildConsoleIfStale.mjs'
import { publishConsole } from './publishConsole.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)

const NOT_INSTALLED =
  'the Electron binary is not installed (installs skip its download; with network access, fetch it once with `node node_modules/electron/install.js`)'

function findElectron() {
  let binary
  try {
    binary = createRequire(import.meta.url)('electron')
  } catch {
    // Electron's own message says to delete node_modules/electron and reinstall, which cannot help here: installs
    // skip download scripts (.npmrc ignore-scripts=true).
    return { ok: false, reason: NOT_INSTALLED }
  }
  if (typeof binary !== 'string' || !existsSync(binary)) return { ok: false, reason: NOT_INSTALLED }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { ok: false, reason: 'there is no display (DISPLAY/WAYLAND_DISPLAY unset)' }
  }
  return { ok: true, binary }
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  // npm stopped: the app (or headless service) stops as if signalled directly; this process exits with it.
  stopWhenParentExits(() => child.kill('SIGTERM'))
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
}

const electron = findElectron()
buildConsoleIfStale()
if (electron.ok) {
  const built = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  )
  if (built.status !== 0) process.exit(built.status ?? 1)
  publishConsole()
  run(electron.binary, [root, ...args])
} else {
  process.stderr.write(
    `opstation: desktop window unavailable: ${electron.reason}; running the service headless instead\n`,
  )
  run(process.execPath, [path.join(root, 'bin', 'opstation.js'), 'serve', ...args])
}
