import { cpSync, mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { publishConsole } from '../../scripts/publishConsole.mjs'
import { runCommand } from './runCommand'

/**
 * The console built the ways a user builds it, each into a folder of the caller's (never this repository's out/,
 * which a running service or another test may be serving). Each returns the folder to serve (OPSTATION_CONSOLE_DIR).
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const nodeBin = (pkg: string, bin: string) => path.join(ROOT, 'node_modules', pkg, 'bin', bin)

/** `npm run build:renderer`: `vite build --config vite.renderer.config.ts`, then scripts/publishConsole.mjs. */
export async function buildConsoleWithVite(tempDir: string): Promise<string> {
  const buildDir = path.join(tempDir, 'renderer-build')
  const consoleDir = path.join(tempDir, 'renderer')
  await runCommand(
    process.execPath,
    [
      nodeBin('vite', 'vite.js'),
      'build',
      '--config',
      'vite.renderer.config.ts',
      '--outDir',
      buildDir,
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, what: 'vite build' },
  )
  publishConsole({ buildDir, consoleDir })
  return consoleDir
}

export type DesktopBuild = { main: string; preload: string; renderer: string }

/**
 * `npm run build` (after its typecheck): `electron-vite build` (main, preload and the renderer through
 * electron.vite.config.ts, where electron-vite sets its own production base), then scripts/publishConsole.mjs.
 */
export async function buildDesktopWithElectronVite(tempDir: string): Promise<DesktopBuild> {
  const outDir = path.join(tempDir, 'electron-vite')
  await runCommand(
    process.execPath,
    [nodeBin('electron-vite', 'electron-vite.js'), 'build', '--outDir', outDir, '--logLevel', 'warn'],
    { cwd: ROOT, what: 'electron-vite build' },
  )
  const renderer = path.join(tempDir, 'renderer')
  publishConsole({ buildDir: path.join(outDir, 'renderer'), consoleDir: renderer })
  return { main: path.join(outDir, 'main'), preload: path.join(outDir, 'preload'), renderer }
}

/**
 * A checkout holding what the headless stale check (scripts/buildConsoleIfStale.mjs) reads and runs: the console's
 * sources, its vite config, the scripts, and this repository's node_modules (a link). The check builds into its own
 * out/renderer, as in a user's checkout.
 */
export function stageConsoleCheckout(rootDir: string): void {
  mkdirSync(rootDir, { recursive: true })
  for (const entry of [
    'package.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'tsconfig.node.json',
    'tsconfig.web.json',
    'vite.renderer.config.ts',
    'scripts/buildConsoleIfStale.mjs',
    'scripts/publishConsole.mjs',
    'scripts/newestMtime.mjs',
    'src/renderer',
    'src/shared',
  ])
    cpSync(path.join(ROOT, entry), path.join(rootDir, entry), { recursive: true })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(rootDir, 'node_modules'), 'dir')
}

/**
 * `npm run serve` / `npm start` without Electron (and the e2e globalSetup): the stale check of the checkout at
 * `rootDir`. Returns whether it built (it says so on stderr), and the folder it serves.
 */
export async function runConsoleStaleCheck(rootDir: string): Promise<{ built: boolean; consoleDir: string }> {
  const { stderr } = await runCommand(process.execPath, ['scripts/buildConsoleIfStale.mjs'], {
    cwd: rootDir,
    what: 'scripts/buildConsoleIfStale.mjs',
  })
  if (/build failed/.test(stderr)) throw new Error(`the stale check's console build failed:\n${stderr}`)
  return { built: /building the console/.test(stderr), consoleDir: path.join(rootDir, 'out', 'renderer') }
}
