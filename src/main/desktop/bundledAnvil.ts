import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * The platforms whose packages carry an embedded chain: those foundry publishes an `@foundry-rs/anvil-<platform>`
 * npm package for (package.json's optionalDependencies; scripts/stageBundledAnvil.mjs puts the binary into each
 * package at resources/anvil/). There is none for Windows on arm64 or for 32-bit systems.
 */
export const EMBEDDED_CHAIN_PLATFORMS = [
  { platform: 'linux', arch: 'x64', label: 'Linux x64' },
  { platform: 'linux', arch: 'arm64', label: 'Linux arm64' },
  { platform: 'darwin', arch: 'x64', label: 'macOS Intel' },
  { platform: 'darwin', arch: 'arm64', label: 'macOS Apple silicon' },
  { platform: 'win32', arch: 'x64', label: 'Windows x64' },
] as const

/** The anvil binary a package carries (resources/anvil/anvil[.exe]); undefined when run unpackaged or none ships. */
export function findBundledAnvil(
  resourcesPath: string | undefined,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (!resourcesPath) return undefined
  const binary = path.join(resourcesPath, 'anvil', platform === 'win32' ? 'anvil.exe' : 'anvil')
  return existsSync(binary) ? binary : undefined
}

/** One line for the About box: whether this platform has an embedded chain, and which platforms do. */
export function describeEmbeddedChain(
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string {
  const labels = EMBEDDED_CHAIN_PLATFORMS.map((target) => target.label).join(', ')
  const here = EMBEDDED_CHAIN_PLATFORMS.find((target) => target.platform === platform && target.arch === arch)
  return here
    ? `Embedded chain: anvil (${here.label}; packages exist for ${labels})`
    : `Embedded chain: none for ${platform} ${arch} (anvil ships for ${labels} only): use --rpc-url or --anvil-path`
}
