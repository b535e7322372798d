import { chmodSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
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
  const appDir = path.join(tempDir, 'dist', arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`)
  const resources = path.join(appDir, 'resources')
  return { appDir, resources, archive: path.join(resources, 'app.asar') }
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
  for (const file of [
    'package.json',
    'package-lock.json',
    'electron-builder.yml',
    'build/icon.png',
    'build/entitlements.mac.plist',
    'scripts/stageBundledAnvil.mjs',
  ])
    cpSync(path.join(ROOT, file), path.join(projectDir, file))
  for (const [name, from] of Object.entries(builtOut))
    cpSync(from, path.join(projectDir, 'out', name), { recursive: true })
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(projectDir, 'node_modules'), 'dir')
}
