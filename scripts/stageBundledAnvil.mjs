// electron-builder `beforePack` hook (electron-builder.yml): puts the anvil binary of the platform being packaged into
// build/anvil/<os>-<arch>/, which electron-builder copies to the package's resources/anvil/ (extraResources), where
// the desktop app finds it (src/main/desktop/bundledAnvil.ts).
//
// npm installs only this machine's `@foundry-rs/anvil-<platform>` optional dependency, so a package for another
// platform (a Windows build on Linux, arm64 on x64) gets its anvil from `npm pack` of that platform's package at the
// version package-lock.json records, checked against the lock's integrity and cached in build/anvil/downloads/.
// Platforms foundry publishes no package for (e.g. Windows arm64, 32-bit) are packaged without an embedded chain.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** electron-builder's `${os}` macro for each Electron platform name (electron-builder.yml uses it in `from`). */
const BUILDER_OS = { linux: 'linux', darwin: 'mac', mas: 'mac', win32: 'win' }
/** foundry's names in `@foundry-rs/anvil-<platform>-<arch>`. */
const FOUNDRY_PLATFORM = { linux: 'linux', darwin: 'darwin', mas: 'darwin', win32: 'win32' }
const FOUNDRY_ARCH = { x64: 'amd64', arm64: 'arm64' }
/** electron-builder's `Arch` enum (builder-util), as the hook's context gives it. */
const BUILDER_ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']

/** The folder electron-builder.yml's extraResources copies for this target: build/anvil/<os>-<arch>. */
export function stagingDirFor(platform, arch, projectDir = root) {
  return path.join(projectDir, 'build', 'anvil', `${BUILDER_OS[platform] ?? platform}-${arch}`)
}

/** The anvil package for an Electron platform and arch, when package.json declares one; else null. */
export function anvilPackageFor(platform, arch, projectDir = root) {
  const p = FOUNDRY_PLATFORM[platform]
  const a = FOUNDRY_ARCH[arch]
  if (!p || !a) return null
  const name = `@foundry-rs/anvil-${p}-${a}`
  const { optionalDependencies = {} } = JSON.parse(
    readFileSync(path.join(projectDir, 'package.json'), 'utf8'),
  )
  return name in optionalDependencies ? name : null
}

/** The version and integrity package-lock.json records for a package (every platform's is recorded). */
function readLockedPackage(name, projectDir) {
  const lock = JSON.parse(readFileSync(path.join(projectDir, 'package-lock.json'), 'utf8'))
  const entry = lock.packages?.[`node_modules/${name}`]
  if (!entry?.version) {
    throw new Error(
      `${name} is not in package-lock.json: run \`npm install\` to record it, then package again`,
    )
  }
  return { version: entry.version, integrity: entry.integrity }
}

function npmCommand(args) {
  // Under `npm run`, npm_execpath is npm's own CLI script: run it with this Node (npm.cmd needs a shell on Windows).
  const npmCli = process.env.npm_execpath
  if (npmCli && /\.c?js$/.test(npmCli)) return [process.execPath, [npmCli, ...args], {}]
  return process.platform === 'win32' ? ['npm.cmd', args, { shell: true }] : ['npm', args, {}]
}

function hasIntegrity(file, integrity) {
  if (!integrity) return true
  const [algorithm, expected] = integrity.split(' ')[0].split('-', 2)
  return createHash(algorithm).update(readFileSync(file)).digest('base64') === expected
}

/** The package's tarball at the locked version: from the download cache, or fetched with `npm pack`. */
function fetchPackageTarball(name, locked, projectDir) {
  const downloads = path.join(projectDir, 'build', 'anvil', 'downloads')
  const tarball = path.join(downloads, `${name.replace('@', '').replace('/', '-')}-${locked.version}.tgz`)
  if (existsSync(tarball) && hasIntegrity(tarball, locked.integrity)) return tarball
  mkdirSync(downloads, { recursive: true })
  const [command, args, options] = npmCommand([
    'pack',
    `${name}@${locked.version}`,
    '--pack-destination',
    downloads,
  ])
  const packed = spawnSync(command, args, { cwd: projectDir, encoding: 'utf8', ...options })
  if (packed.status !== 0 || !existsSync(tarball)) {
    throw new Error(
      `npm pack ${name}@${locked.version} failed: ${(packed.stderr || packed.error?.message || '').trim()}`,
    )
  }
  if (!hasIntegrity(tarball, locked.integrity)) {
    rmSync(tarball, { force: true })
    throw new Error(
      `${name}@${locked.version} from the registry does not match package-lock.json's integrity`,
    )
  }
  return tarball
}

/** Extracts the anvil binary out of a package tarball (package/bin/<exe>) into `dir`. */
function extractBinary(tarball, exe, dir) {
  const temp = mkdtempSync(path.join(path.dirname(tarball), '.extract-'))
  try {
    const untar = spawnSync('tar', ['-xzf', tarball, '-C', temp], { encoding: 'utf8' })
    if (untar.status !== 0)
      throw new Error(`tar could not extract ${tarball}: ${(untar.stderr ?? '').trim()}`)
    copyFileSync(path.join(temp, 'package', 'bin', exe), path.join(dir, exe))
  } finally {
    rmSync(temp, { recursive: true, force: true })
  }
}

/**
 * Stages the anvil binary for one target into build/anvil/<os>-<arch>/ (emptied first, so no other version ships).
 * Returns where it came from, or null when foundry publishes no anvil for the target.
 */
export function stageBundledAnvil({ platform, arch, projectDir = root }) {
  const dir = stagingDirFor(platform, arch, projectDir)
  rmSync(dir, { recursive: true, force: true })
  const name = anvilPackageFor(platform, arch, projectDir)
  if (!name) return null
  mkdirSync(dir, { recursive: true })
  const exe = platform === 'win32' ? 'anvil.exe' : 'anvil'
  const locked = readLockedPackage(name, projectDir)
  const installed = path.join(projectDir, 'node_modules', name)
  const installedVersion = existsSync(path.join(installed, 'package.json'))
    ? JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')).version
    : null
  let source
  if (installedVersion === locked.version && existsSync(path.join(installed, 'bin', exe))) {
    copyFileSync(path.join(installed, 'bin', exe), path.join(dir, exe))
    source = `node_modules/${name}`
  } else {
    const tarball = fetchPackageTarball(name, locked, projectDir)
    extractBinary(tarball, exe, dir)
    source = path.relative(projectDir, tarball)
  }
  chmodSync(path.join(dir, exe), 0o755)
  return { name, version: locked.version, binary: path.join(dir, exe), source }
}

/** The beforePack hook: runs once per platform and arch being packaged. */
export default async function beforePack(context) {
  const platform = context.electronPlatformName
  const arch = BUILDER_ARCH[context.arch] ?? String(context.arch)
  const projectDir = context.packager?.projectDir ?? root
  const staged = stageBundledAnvil({ platform, arch, projectDir })
  if (staged) {
    console.log(
      `  • anvil ${staged.version} for ${platform}-${arch} from ${staged.source} → resources/anvil/`,
    )
  } else {
    console.warn(
      `  • no anvil package for ${platform}-${arch}: this package has no embedded chain (it needs --rpc-url or --anvil-path)`,
    )
  }
}
