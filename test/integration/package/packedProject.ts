import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { runCommand } from '../../helpers/runCommand'

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'

export type PackedTarball = {
  file: string
  /** Bytes of the .tgz and of its files unpacked. */
  size: number
  unpackedSize: number
  files: string[]
  packMs: number
}

export type FreshClone = {
  dir: string
  /** What a plain `npm pack` there did: its exit status, its stderr, and the tarballs it left. */
  plainPack: { status: number | null; stderr: string; tarballs: string[] }
}

/**
 * A fresh clone of the repository as it is now, in `dir`: `git clone` at HEAD, then the working tree's uncommitted
 * changes and its untracked (not ignored) files, so no build (dist/, out/) comes along; node_modules is linked to the
 * repository's (no install). Then a plain `npm pack` there, as anyone would run it first.
 */
export async function cloneRepository(dir: string, env: NodeJS.ProcessEnv): Promise<FreshClone> {
  const git = (args: string[], cwd = repoRoot) =>
    runCommand('git', args, { cwd, env, what: `git ${args.join(' ')}` })
  const head = (await git(['rev-parse', 'HEAD'])).stdout.trim()
  await git(['clone', '--quiet', '--no-checkout', repoRoot, dir])
  await git(['checkout', '--quiet', head], dir)
  const diff = path.join(path.dirname(dir), 'working-tree.diff')
  writeFileSync(diff, (await git(['diff', '--binary', 'HEAD'])).stdout)
  if (statSync(diff).size > 0) await git(['apply', '--binary', diff], dir)
  const untracked = (await git(['ls-files', '--others', '--exclude-standard', '-z'])).stdout.split('\0')
  for (const file of untracked.filter(Boolean)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    copyFileSync(path.join(repoRoot, file), path.join(dir, file))
  }
  symlinkSync(realpathSync(path.join(repoRoot, 'node_modules')), path.join(dir, 'node_modules'))
  const plain = spawnSync(npm, ['pack'], { cwd: dir, env, encoding: 'utf8' })
  const tarballs = readdirSync(dir).filter((file) => file.endsWith('.tgz'))
  return { dir, plainPack: { status: plain.status, stderr: plain.stderr, tarballs } }
}

/**
 * `npm run pack` in `cloneDir` (the command the README gives: prepack builds the package, then npm packs it) into
 * `destination`.
 */
export async function packOpstation(
  cloneDir: string,
  destination: string,
  env: NodeJS.ProcessEnv,
): Promise<PackedTarball> {
  const started = performance.now()
  const { stdout } = await runCommand(
    npm,
    ['run', '--silent', 'pack', '--', '--json', '--pack-destination', destination],
    { cwd: cloneDir, env, what: 'npm run pack' },
  )
  const [packed] = JSON.parse(stdout) as {
    filename: string
    size: number
    unpackedSize: number
    files: { path: string }[]
  }[]
  return {
    file: path.join(destination, packed!.filename),
    size: packed!.size,
    unpackedSize: packed!.unpackedSize,
    files: packed!.files.map((file) => file.path),
    packMs: performance.now() - started,
  }
}

/** The version of a package the repository installed, so the temp project gets the same one. */
function installedVersion(name: string): string {
  return JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version
}

/**
 * A fresh ES-module project in `dir` (outside the repository) with the tarball installed as a dev dependency, as a
 * user installs it, beside what its checks use: viem, permissionless (and the ox it needs, pinned as the repository
 * pins it), prool and vitest, at the repository's versions. The check scripts of ./project are copied in.
 */
export async function createPackedProject(dir: string, tarball: string, env: NodeJS.ProcessEnv) {
  const ox = installedVersion('ox')
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'opstation-package-check',
        private: true,
        type: 'module',
        overrides: { permissionless: { ox } },
      },
      null,
      2,
    ),
  )
  const fixtures = path.join(import.meta.dirname, 'project')
  for (const file of readdirSync(fixtures)) copyFileSync(path.join(fixtures, file), path.join(dir, file))
  const started = performance.now()
  await runCommand(
    npm,
    [
      'install',
      '--save-dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      ...['viem', 'permissionless', 'prool', 'vitest'].map((name) => `${name}@${installedVersion(name)}`),
      `ox@${ox}`,
    ],
    { cwd: dir, env, what: 'npm install of the tarball' },
  )
  return { installMs: performance.now() - started }
}

/** Runs a command of the temp project (`npx …`, `node script.mjs`) to completion. */
export function runInProject(dir: string, env: NodeJS.ProcessEnv, command: 'node' | 'npx', args: string[]) {
  return runCommand(command === 'npx' ? npx : 'node', args, {
    cwd: dir,
    env,
    what: `${command} ${args.join(' ')}`,
  })
}

/** The last line of a script's output, parsed as JSON. */
export function readJsonLine(stdout: string): Record<string, any> {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null')
}

export type ServeProcess = { child: ChildProcess; ready: Record<string, any>; exited: Promise<void> }

/** `npx opstation serve <args>` in the temp project, its own process group; resolves on its ready line. */
export async function startServe(dir: string, env: NodeJS.ProcessEnv, args: string[]): Promise<ServeProcess> {
  const child = spawn(npx, ['opstation', 'serve', ...args], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const ready = await new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line in 60 s; stderr:\n${stderr}`)), 60_000)
    child.stdout?.on('data', (d) => {
      stdout += d
      const line = stdout.split('\n').find((l) => l.startsWith('opstation ready '))
      if (!line) return
      clearTimeout(timer)
      resolve(JSON.parse(line.slice('opstation ready '.length)))
    })
    exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`npx opstation serve exited before it was ready; stderr:\n${stderr}`))
    })
  })
  return { child, ready, exited }
}

/** Pids of the processes whose command line mentions `text` (Linux: read from /proc). */
export function findProcessesMentioning(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text)
      } catch {
        return false
      }
    })
    .map(Number)
}

/** Waits until no process mentions `text`; returns the ones still there after `timeoutMs`. */
export async function waitForNoProcessMentioning(text: string, timeoutMs = 20_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const left = findProcessesMentioning(text)
    if (left.length === 0 || Date.now() > deadline) return left
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

function sumBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((total, entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return total + sumBytes(full)
    return entry.isFile() ? total + statSync(full).size : total
  }, 0)
}

/**
 * The installed size of a package and of it with every package it needs at run time (its dependencies and the
 * optional ones that are installed, found as Node finds them), in bytes of file contents.
 */
export function measureInstalledPackage(projectDir: string, name: string) {
  const find = (dependency: string, from: string): string | undefined => {
    for (let dir = from; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, 'node_modules', dependency)
      if (existsSync(path.join(candidate, 'package.json'))) return candidate
      if (dir === projectDir || path.dirname(dir) === dir) return undefined
    }
  }
  const seen = new Set<string>()
  const visit = (dir: string) => {
    if (seen.has(dir)) return
    seen.add(dir)
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    for (const dependency of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = find(dependency, dir)
      if (found) visit(found)
    }
  }
  const root = path.join(projectDir, 'node_modules', name)
  visit(root)
  const sizes = [...seen].map((dir) => sumBytes(dir))
  return { ownBytes: sizes[0] ?? 0, totalBytes: sizes.reduce((a, b) => a + b, 0), packages: seen.size }
}
