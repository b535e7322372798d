import { createHash } from 'node:crypto'
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { DESKTOP_BUILD, isDesktopBuildFresh } from '../../scripts/buildDesktopIfStale.mjs'
import { releaseLockDir, takeLockDir } from '../../scripts/lib/lockDir.mjs'
import { runCommand } from './runCommand'

/**
 * electron-builder's Linux `--dir` package (the unpacked app: no AppImage or deb, whose tools electron-builder would
 * download), built against a stand-in Electron distribution. Used by the packaging smoke test
 * (test/integration/desktop/packaging.test.ts) and the console's build-path e2e test (test/e2e/buildPaths.spec.ts).
 *
 * Electron's binary cannot be downloaded on these machines (installs skip its download script, and electron-builder
 * would fetch it again for the package), so electron-builder is given a stand-in (`electronDist`): a folder with a
 * fake `electron` executable, copied and renamed as the real one would be. What it adds to it is real: the app
 * archive, its dependencies and the resources.
 */

const ROOT = path.resolve(import.meta.dirname, '../..')
const require = createRequire(import.meta.url)

/** electron-builder's own archive module (a dependency of app-builder-lib), so the tests need no package of their own. */
export const asar = createRequire(require.resolve('app-builder-lib'))('@electron/asar') as {
  listPackage(archive: string, options: { isPack: boolean }): string[]
  extractFile(archive: string, file: string): Buffer
  extractAll(archive: string, dest: string): void
}

/** Whether electron-builder can build this machine's Linux `--dir` package here. */
export const canPackageLinuxDir = process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch)

/** A stand-in for Electron's Linux distribution: the executable electron-builder renames, and the license file. */
export function writeStandInElectronDist(dir: string): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n')
  chmodSync(path.join(dir, 'electron'), 0o755)
  writeFileSync(path.join(dir, 'LICENSE'), 'stand-in\n')
}

export type LinuxDirPackage = {
  /** The unpacked app: the renamed executable (`opstation`) and resources/. */
  appDir: string
  resources: string
  /** resources/app.asar */
  archive: string
}

/**
 * `electron-builder --linux dir --<arch>` of `projectDir` (default: this repository, packing its out/) into
 * `tempDir`/dist, with the stand-in Electron written to `tempDir`/electron-dist.
 */
export async function packageLinuxDir({
  tempDir,
  projectDir = ROOT,
}: {
  tempDir: string
  projectDir?: string
}): Promise<LinuxDirPackage> {
  const arch = process.arch
  const electronDist = path.join(tempDir, 'electron-dist')
  writeStandInElectronDist(electronDist)
  await runCommand(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
      ...(projectDir === ROOT ? [] : ['--projectDir', projectDir]),
      '--linux',
      'dir',
      `--${arch}`,
      '--publish',
      'never',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${path.join(tempDir, 'dist')}`,
    ],
    // The beforePack hook's path (electron-builder.yml) is resolved from the working folder.
    { cwd: projectDir, what: 'electron-builder' },
  )
  return linuxDirPackageIn(tempDir)
}

function linuxDirPackageIn(tempDir: string): LinuxDirPackage {
  const arch = process.arch
  const appDir = path.join(tempDir, 'dist', arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`)
  const resources = path.join(appDir, 'resources')
  return { appDir, resources, archive: path.join(resources, 'app.asar') }
}

/** What electron-builder packs of this repository besides node_modules: the files whose change makes a new package. */
const PACKAGED_INPUTS = [
  'package.json',
  'package-lock.json',
  'electron-builder.yml',
  'build/icon.png',
  'build/entitlements.mac.plist',
  'scripts/stageBundledAnvil.mjs',
]

/** Where packageRepositoryOnce keeps the package of each desktop build (npm ci starts it afresh). */
const SHARED_PACKAGES = path.join(ROOT, 'node_modules', '.cache', 'opstation-linux-dir')

/** Names one desktop build and packaging input: out/'s files (name, size, time) and the inputs' contents. */
function keyRepositoryPackage(): string {
  const hash = createHash('sha256')
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(file)
      else {
        const { size, mtimeMs } = statSync(file)
        hash.update(`${path.relative(ROOT, file)}\0${size}\0${mtimeMs}\n`)
      }
    }
  }
  for (const dir of Object.values(DESKTOP_BUILD)) visit(dir)
  for (const file of PACKAGED_INPUTS) hash.update(readFileSync(path.join(ROOT, file)))
  return hash.digest('hex').slice(0, 16)
}

/**
 * The Linux `--dir` package of this repository's out/, which must be current (buildDesktopIfStale), made once per
 * desktop build and shared by the processes that read it (the packaging test, the console's build-path e2e test): the
 * first packs under a lock while the others wait, then each reads the same folder. Read it; never write into it.
 */
export async function packageRepositoryOnce(): Promise<LinuxDirPackage> {
  if (!isDesktopBuildFresh())
    throw new Error('out/ is missing or older than src/: build it first (buildDesktopIfStale)')
  const key = keyRepositoryPackage()
  const tempDir = path.join(SHARED_PACKAGES, key)
  const complete = path.join(tempDir, 'complete')
  const lock = `${tempDir}.lock`
  mkdirSync(SHARED_PACKAGES, { recursive: true })
  await takeLockDir(lock)
  try {
    if (!existsSync(complete)) {
      rmSync(tempDir, { recursive: true, force: true })
      const packaged = await packageLinuxDir({ tempDir })
      writeFileSync(complete, `${new Date().toISOString()}\n`)
      pruneSharedPackages(key)
      return packaged
    }
    return linuxDirPackageIn(tempDir)
  } finally {
    releaseLockDir(lock)
  }
}

/** Removes the packages of earlier desktop builds, a day old or more (a package made an hour ago may still be read). */
function pruneSharedPackages(current: string): void {
  const dayAgo = Date.now() - 24 * 3600_000
  for (const entry of readdirSync(SHARED_PACKAGES)) {
    const folder = path.join(SHARED_PACKAGES, entry)
    if (entry !== current && !entry.endsWith('.lock') && statSync(folder).mtimeMs < dayAgo)
      rmSync(folder, { recursive: true, force: true })
  }
}

/**
 * A project folder electron-builder can package without touching this repository's out/: its package.json, lock,
 * electron-builder.yml and what that names (build resources, the beforePack hook), `builtOut`'s main, preload and
 * renderer as out/, and this repository's node_modules (a link: electron-builder collects the production
 * dependencies from it).
 */
export function stagePackagingProject({
  projectDir,
  builtOut,
}: {
  projectDir: string
  /** A folder with main/, preload/ and renderer/, as `electron-vite build` and publishConsole leave out/. */
  builtOut: { main: string; preload: string; renderer: string }
}): void {
  mkdirSync(projectDir, { recursive: true })
  for (const file of PACKAGED_INPUTS) cpSync(path.join(ROOT, file), path.join(projectDir, file))
  for (const [name, from] of Object.entries(builtOut))
    cpSync(from, path.join(projectDir, 'out', name), { recursive: true })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(projectDir, 'node_modules'), 'dir')
}
