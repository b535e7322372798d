import { accessSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, join } from 'node:path'
import { StartupError } from '../../errors'

const platformNames: Record<string, string> = { linux: 'linux', darwin: 'darwin', win32: 'win32' }
const archNames: Record<string, string> = { x64: 'amd64', arm64: 'arm64' }

/** The npm package that ships anvil for this platform, e.g. `@foundry-rs/anvil-linux-amd64`. */
export function getAnvilPackageName(
  platform: string = process.platform,
  arch: string = process.arch,
): string | null {
  const p = platformNames[platform]
  const a = archNames[arch]
  return p && a ? `@foundry-rs/anvil-${p}-${a}` : null
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * Finds the anvil binary: the configured path (refused when it is not an executable file) → the
 * `@foundry-rs/anvil-<platform>-<arch>` package → `anvil` on PATH. Throws a StartupError listing every place tried.
 */
export function resolveAnvilBinary(configuredPath?: string): string {
  const tried: string[] = []
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'

  // A path the user gave is used or refused, never silently replaced by another anvil.
  if (configuredPath) {
    if (isExecutable(configuredPath)) return configuredPath
    throw new StartupError(`The anvil binary ${configuredPath} (--anvil-path) is not an executable file`, {
      data: { hint: 'give the path of an anvil binary, or leave --anvil-path out to use the bundled one' },
    })
  }

  const pkg = getAnvilPackageName()
  if (pkg) {
    const require = createRequire(import.meta.url)
    let pkgDir: string | null = null
    for (const base of require.resolve.paths(pkg) ?? []) {
      const candidate = join(base, pkg)
      if (isExecutable(join(candidate, 'bin', exe))) {
        pkgDir = candidate
        break
      }
    }
    if (pkgDir) return join(pkgDir, 'bin', exe)
    tried.push(`npm package ${pkg} (not installed)`)
  } else {
    tried.push(`npm package for ${process.platform}-${process.arch} (no such package)`)
  }

  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, exe)
    if (isExecutable(candidate)) return candidate
  }
  tried.push(`${exe} on PATH`)

  throw new StartupError(`No anvil binary found: tried ${tried.join('; ')}`, {
    data: { tried, hint: `install ${pkg ?? 'foundry'} or pass anvilPath` },
  })
}
