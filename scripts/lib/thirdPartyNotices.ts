import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { zooDeployments, zooSources } from '../../src/main/service/chain/accountZoo/zooDeployments'
import * as artifacts from '../../src/main/service/chain/artifacts'
import * as artifactsV09 from '../../src/main/service/chain/artifacts/v09'
import { CONTRACT_PACKAGES } from '../build-contracts.mjs'
import { type ContractSourceLocation, ZOO_FAMILY_SOURCES } from './zooContractSources'

const root = path.resolve(import.meta.dirname, '..', '..')

/** THIRD_PARTY_NOTICES.md, at the repository's root and in the npm package. */
export const NOTICES_FILE = path.join(root, 'THIRD_PARTY_NOTICES.md')

/**
 * The licence texts the package ships beside the notices (GPL-3.0, which LGPL-3.0 builds on; AGPL-3.0, of Rhinestone's
 * module bases compiled into MEE 1.0.0's composable module; Apache-2.0).
 */
export const LICENCE_TEXTS = [
  'licenses/GPL-3.0.txt',
  'licenses/LGPL-3.0.txt',
  'licenses/AGPL-3.0.txt',
  'licenses/Apache-2.0.txt',
] as const

type ArtifactSource = { origins: readonly { origin: string; licences: readonly string[] }[] }
type BundledPackage = {
  name: string
  version: string
  licence: string
  repository?: string
  licenceText?: string
}

/** A repository location as a URL: the commit when known, else the tag, else the repository. */
function locationUrl(location: { repository: string; ref?: string; commit?: string }): string {
  const repository = location.repository.startsWith('https://')
    ? location.repository
    : `https://github.com/${location.repository}`
  const at = location.commit ?? location.ref
  return at ? `${repository}/tree/${at}` : repository
}

/** A location with its release; a release whose commit was not checked against the repository says so. */
function describeLocation(location: ContractSourceLocation): string {
  const holds = location.holds ? `: ${location.holds}` : ''
  if (location.ref && !location.commit) {
    return `${locationUrl({ repository: location.repository })} (release ${location.ref}; its commit is not recorded here)${holds}`
  }
  const release = location.ref ? ` (release ${location.ref})` : ''
  return `${locationUrl(location)}${release}${holds}`
}

function describeOrigin(origin: string): string {
  if (origin === 'opstation') return "Opstation's own source, in this package: `contracts/`"
  const record = CONTRACT_PACKAGES[origin]
  if (!record) throw new Error(`artifact origin ${origin} is not in build-contracts.mjs#CONTRACT_PACKAGES`)
  const parts = [`\`${origin}\``]
  if (record.tarball) parts.push(`npm: ${record.tarball}`)
  parts.push(`upstream: ${describeLocation(record)}`)
  if (!/@\d/.test(origin.slice(1))) parts.push('at the version the upstream release pinned (its lockfile)')
  return parts.join('; ')
}

function renderArtifacts(): string[] {
  const lines: string[] = []
  const sorted = Object.entries(artifacts).sort(([a], [b]) => a.localeCompare(b))
  for (const [exportName, artifact] of sorted) {
    const name = exportName.replace(/Artifact$/, '')
    const a = artifact as {
      contractName?: string
      package?: string
      compiler?: { version: string }
      source?: ArtifactSource
    }
    if (!a.source) throw new Error(`artifact ${name} records no source (scripts/build-contracts.mjs)`)
    const what = a.contractName
      ? a.compiler
        ? `${a.contractName}, compiled here with solc ${a.compiler.version.split('+')[0]} (settings in the artifact)`
        : `${a.contractName}, the published artifact of \`${a.package}\`, deployed unchanged`
      : `the Smart Account proxy creation code of \`${a.package}\` (its PROXY_CREATION_CODE)`
    lines.push(`### \`${name}\``, '', `${what}.`, '')
    for (const { origin, licences } of a.source.origins) {
      lines.push(`- ${licences.join(', ')}: ${describeOrigin(origin)}`)
    }
    lines.push('')
  }
  return lines
}

/** A release repository (`owner/name`) and its tag and commit, as the v0.9 artifacts record them. */
const RELEASE_SOURCE = /^([\w.-]+\/[\w.-]+) (v[\w.-]+) \(([0-9a-f]{40})\)$/

/**
 * The EntryPoint v0.9 contracts (scripts/record-entrypoint-v09.mjs): the release's own CREATE2 deployments (their
 * creation code as recorded, checked by the address it lands at), and the rc.1 npm package's EntryPointSimulations.
 */
function renderArtifactsV09(): string[] {
  const lines: string[] = []
  const sorted = Object.entries(artifactsV09).sort(([a], [b]) => a.localeCompare(b))
  for (const [exportName, artifact] of sorted) {
    const name = exportName.replace(/Artifact$/, '')
    const a = artifact as {
      contractName: string
      licence: string
      source?: string
      package?: string
      address?: string
    }
    const release = a.source ? RELEASE_SOURCE.exec(a.source) : null
    if (!a.licence || (!release && !a.package))
      throw new Error(`artifact ${name} records no licence or source (scripts/record-entrypoint-v09.mjs)`)
    const what = release
      ? `${a.contractName} of the ${release[2]} release, at its canonical address ${a.address} (the release's own deployment)`
      : `${a.contractName}, the published artifact of \`${a.package}\`, used by the service for simulation only`
    const where = release
      ? locationUrl({ repository: release[1] as string, commit: release[3] })
      : `\`${a.package}\`; npm: https://registry.npmjs.org/${a.package?.replace(/@([^@/]+)$/, '/-/contracts-$1.tgz')}; upstream: https://github.com/eth-infinitism/account-abstraction`
    lines.push(`### \`${name}\``, '', `${what}.`, '', `- ${a.licence}: ${where}`, '')
  }
  return lines
}

function renderZoo(): string[] {
  const lines: string[] = []
  const families = new Map<string, string[]>()
  for (const deployment of zooDeployments) {
    const names = families.get(deployment.account) ?? []
    for (const contract of deployment.contracts) names.push(contract.name)
    families.set(deployment.account, names)
  }
  for (const [family, contracts] of families) {
    const record = ZOO_FAMILY_SOURCES[family]
    if (!record)
      throw new Error(`the zoo's account family ${family} has no entry in scripts/lib/zooContractSources.ts`)
    lines.push(`### ${record.title}`, '')
    lines.push(`Licences: ${record.licences.join(', ')}.${record.note ? ` ${record.note}` : ''}`, '')
    lines.push(`Contracts: ${contracts.map((c) => `\`${c}\``).join(', ')}.`, '')
    lines.push('Source:', '')
    for (const location of record.locations) lines.push(`- ${describeLocation(location)}`)
    for (const source of zooSources.filter((s) => record.fromZooSources?.(s))) {
      const version = 'version' in source ? ` (${source.version})` : ''
      lines.push(`- ${locationUrl(source)}${version}, \`${source.path}\`: ${source.licence}`)
    }
    lines.push('')
  }
  return lines
}

/** The folder of the installed package a bundled file belongs to, and its name. */
function packageDirOf(file: string): { dir: string; name: string } {
  const at = file.lastIndexOf('node_modules/')
  const parts = file.slice(at + 'node_modules/'.length).split('/')
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string)
  return { dir: file.slice(0, at + 'node_modules/'.length) + name, name }
}

function readLicenceText(dir: string): string | undefined {
  const file = readdirSync(dir).find((entry) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(entry))
  return file ? readFileSync(path.join(dir, file), 'utf8').trim() : undefined
}

/**
 * The npm packages the console's build (out/renderer/) bundles: the packages esbuild reaches from the console's
 * entry (type-only imports dropped, as vite drops them), each read from its installed package.json.
 */
export async function listConsolePackages(): Promise<BundledPackage[]> {
  const { build } = await import('esbuild')
  // Relative imports resolved exactly (esbuild's own resolver confuses gasLimits.ts with GasLimits.tsx).
  const exactRelative = {
    name: 'exact-relative-imports',
    setup(b: import('esbuild').PluginBuild) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const base = path.resolve(args.resolveDir, args.path)
        const candidates = [base, ...['.ts', '.tsx', '.js', '.mjs', '.json'].map((ext) => base + ext)]
        candidates.push(...['index.ts', 'index.tsx'].map((index) => path.join(base, index)))
        const found = candidates.find((file) => existsSync(file) && statSync(file).isFile())
        return found ? { path: found } : undefined
      })
    },
  }
  const result = await build({
    entryPoints: [path.join(root, 'src/renderer/src/main.tsx')],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    jsx: 'automatic',
    outdir: path.join(root, 'out', 'notices-scan'),
    logLevel: 'error',
    loader: { '.css': 'empty', '.svg': 'empty', '.png': 'empty' },
    plugins: [exactRelative],
  })
  const packages = new Map<string, BundledPackage>()
  for (const input of Object.keys(result.metafile.inputs)) {
    if (!input.includes('node_modules/')) continue
    const { dir, name } = packageDirOf(path.resolve(root, input))
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    const key = `${name}@${manifest.version}`
    if (packages.has(key)) continue
    const repository =
      typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url
    packages.set(key, {
      name,
      version: manifest.version,
      licence: manifest.license ?? 'not stated',
      repository: repository
        ?.replace(/^git\+/, '')
        .replace(/\.git$/, '')
        .replace(/^(github:)?([\w.-]+\/[\w.-]+)$/, 'https://github.com/$2'),
      licenceText: readLicenceText(dir),
    })
  }
  return [...packages.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  )
}

function renderConsolePackages(packages: readonly BundledPackage[]): string[] {
  const lines = ['| package | version | licence | source |', '|---|---|---|---|']
  for (const p of packages)
    lines.push(`| \`${p.name}\` | ${p.version} | ${p.licence} | ${p.repository ?? ''} |`)
  lines.push('', '### Their licence texts', '')
  for (const p of packages) {
    lines.push(`#### \`${p.name}@${p.version}\``, '')
    if (p.licenceText) lines.push('```text', p.licenceText, '```', '')
    else lines.push(`(The package ships no licence file; its package.json states ${p.licence}.)`, '')
  }
  return lines
}

/** THIRD_PARTY_NOTICES.md as the recorded sources give it (scripts/writeThirdPartyNotices.mjs writes it). */
export async function renderThirdPartyNotices(): Promise<string> {
  const packages = await listConsolePackages()
  const licenceFiles = LICENCE_TEXTS.map((file) => `\`${file}\``).join(', ')
  return [
    '# Third-party notices',
    '',
    '<!-- Generated by `npm run notices` (scripts/writeThirdPartyNotices.mjs). Do not edit. -->',
    '',
    "Opstation's own code is under the MIT licence (`LICENSE`). The package also carries the work of others, each",
    'under its own licence, listed below with where its source is:',
    '',
    '1. Contract bytecode that Opstation deploys on its local chain: the contract artifacts (EntryPoints, accounts,',
    '   paymasters, token) and the account zoo (smart accounts at the addresses their SDKs expect).',
    '2. npm packages bundled into the console (`out/renderer/`). The service and the CLI (`dist/`) bundle no npm',
    '   package: they import their dependencies, which npm installs with their own licences.',
    '',
    'Bytecode under GPL-3.0, LGPL-3.0 or AGPL-3.0 is the object code of the sources named with it. Its complete corresponding',
    'source is at the locations given: the npm tarball is exactly the source compiled here or the artifact copied',
    '(with the compiler settings recorded in the artifact), the upstream repository is where it is developed, and',
    "Opstation's own contracts are in this package's `contracts/` folder. The licence texts are in",
    `${licenceFiles}; MIT and Unlicense notices are in the sources at those locations.`,
    '',
    '## Contract artifacts',
    '',
    'Each with the licences its source files declare (their SPDX-License-Identifier lines), per origin.',
    '',
    ...renderArtifacts(),
    '## EntryPoint v0.9',
    '',
    ...renderArtifactsV09(),
    '## Account zoo',
    '',
    ...renderZoo(),
    '## npm packages in the console (`out/renderer/`)',
    '',
    ...renderConsolePackages(packages),
  ]
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/\n*$/, '\n')
}
