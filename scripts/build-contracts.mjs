#!/usr/bin/env node
/**
 * Builds the contract artifacts the chain module deploys, into `src/main/service/chain/artifacts/*.ts`.
 *
 * Compiled here with solc 0.8.17 (npm `solc`, soljson, works offline), standard JSON input:
 *   - Biconomy Smart Account v2 from `@biconomy-devx/account-contracts-v2@1.0.1`: SmartAccount (implementation),
 *     Proxy, SmartAccountFactory, DefaultCallbackHandler, EcdsaOwnershipRegistryModule and
 *     VerifyingSingletonPaymaster (v1.1.0 paymasterAndData layout with validUntil/validAfter).
 *   - Our own `contracts/BiconomyTokenPaymaster.sol` (biconomy-protocol.md section 4.2 layout and hash)
 *     and `contracts/TestToken.sol` (open-mint ERC20 for local chains).
 * Compiled with solc 0.8.28 (npm alias `solc-0.8.28`, optimizer 200 runs, EVM cancun):
 *   - Our own `contracts/packed/` paymasters for EntryPoint v0.7 and v0.8 (OpstationVerifyingPaymaster with per-dApp
 *     gas tanks, OpstationTokenPaymaster for ERC20 mode; MIT), built against the MIT interfaces of
 *     `@account-abstraction/contracts@0.8.0` (IPaymaster and PackedUserOperation, identical in 0.7.0), and their
 *     v0.9 twins (`contracts/packed/v09/`: the service's signature in v0.9's paymasterSignature).
 * Compiler settings of the 0.8.17 build (same as Biconomy's scw-contracts hardhat.config.ts, biconomy-protocol.md section 3):
 *   solc 0.8.17, optimizer enabled with 800 runs, viaIR true, default EVM version (london for 0.8.17),
 *   metadata bytecodeHash ipfs (solc default). Source unit names of the Biconomy files are
 *   `contracts/smart-account/...` as in Biconomy's repository.
 *
 * Copied without recompiling (the audited, published bytecode; MIT licence, as the packages state):
 *   - EntryPoint v0.6, SimpleAccountFactory and SimpleAccount from `@account-abstraction/contracts@0.6.0`
 *     `artifacts/*.json`.
 *   - EntryPoint, EntryPointSimulations, SimpleAccountFactory and SimpleAccount v0.7 and v0.8 (and v0.8's
 *     Simple7702Account) from `@account-abstraction/contracts@0.7.0` / `@0.8.0` (installed under the npm aliases
 *     `@account-abstraction/contracts-v07` / `-v08`). Deployed with the CREATE2 deployer, these land at the
 *     canonical addresses (EntryPoint with the published salts, the rest with salt 0).
 *   - `PROXY_CREATION_CODE` of the Biconomy SDK (`@biconomy/account`), which the SDK uses to compute Smart Account
 *     addresses off-chain. Our compiled Proxy differs from it only in the metadata hash, so the chain module patches
 *     the SDK's bytes into the factory's runtime code (see `chain/deploy/getSmartAccountFactoryCode.ts`).
 *
 * Every artifact records its `source`: for each place its Solidity comes from (an npm package, its upstream repository
 * and release, or this repository's contracts/), the licences its files declare (SPDX-License-Identifier lines of
 * every source file compiled into it: solc's metadata for what is compiled here, the import closure of the published
 * artifact's source file for what is copied). scripts/writeThirdPartyNotices.mjs writes THIRD_PARTY_NOTICES.md from it.
 *
 * Usage:
 *   node scripts/build-contracts.mjs               write the artifact files
 *   node scripts/build-contracts.mjs --json FILE   write the artifacts as one JSON document to FILE (used by the
 *                                                  test that checks the committed artifacts are current)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const solc = require('solc')
/** solc 0.8.28 (npm alias `solc-0.8.28`) for Opstation's own v0.7/v0.8 paymasters. */
const solc0828 = require('solc-0.8.28')

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'src/main/service/chain/artifacts')
/** The folder of an installed package (works for packages whose `exports` hide package.json). */
function packageDir(name) {
  for (const base of require.resolve.paths(name) ?? []) {
    try {
      readFileSync(join(base, name, 'package.json'))
      return join(base, name)
    } catch {}
  }
  throw new Error(`Package ${name} is not installed`)
}
const biconomyDir = packageDir('@biconomy-devx/account-contracts-v2')
const sdkDir = packageDir('@biconomy/account')

export const compilerSettings = {
  optimizer: { enabled: true, runs: 800 },
  viaIR: true,
  metadata: { bytecodeHash: 'ipfs' },
}

/**
 * Opstation's paymasters for the EntryPoints that take PackedUserOperation (v0.7 and v0.8; `contracts/packed/`,
 * built against `@account-abstraction/contracts@0.8.0`'s MIT interfaces): solc 0.8.28, optimizer 200 runs.
 */
export const packedCompilerSettings = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'ipfs' },
}

/**
 * Where each npm package of contract sources comes from: its registry tarball (the exact files used here) and its
 * upstream repository at the release (commit where checked against the repository). The npm packages of
 * `@account-abstraction/contracts` declare MIT, but their files declare their own licences (EntryPoint: GPL-3.0);
 * the files' SPDX lines are what each artifact records.
 */
export const CONTRACT_PACKAGES = {
  '@account-abstraction/contracts@0.6.0': {
    tarball: 'https://registry.npmjs.org/@account-abstraction/contracts/-/contracts-0.6.0.tgz',
    repository: 'https://github.com/eth-infinitism/account-abstraction',
    ref: 'v0.6.0',
    commit: 'abff2aca61a8f0934e533d0d352978055fddbd96',
  },
  '@account-abstraction/contracts@0.7.0': {
    tarball: 'https://registry.npmjs.org/@account-abstraction/contracts/-/contracts-0.7.0.tgz',
    repository: 'https://github.com/eth-infinitism/account-abstraction',
    ref: 'v0.7.0',
    commit: '7af70c8993a6f42973f520ae0752386a5032abe7',
  },
  '@account-abstraction/contracts@0.8.0': {
    tarball: 'https://registry.npmjs.org/@account-abstraction/contracts/-/contracts-0.8.0.tgz',
    repository: 'https://github.com/eth-infinitism/account-abstraction',
    ref: 'v0.8.0',
  },
  '@biconomy-devx/account-contracts-v2@1.0.1': {
    tarball:
      'https://registry.npmjs.org/@biconomy-devx/account-contracts-v2/-/account-contracts-v2-1.0.1.tgz',
    repository: 'https://github.com/bcnmy/scw-contracts',
    // The package names no commit; the files compiled here are those of this commit (branch develop).
    commit: '8c71c2a6404feb3eef85d1a2707042114b204878',
  },
  '@openzeppelin/contracts@4.9.3': {
    tarball: 'https://registry.npmjs.org/@openzeppelin/contracts/-/contracts-4.9.3.tgz',
    repository: 'https://github.com/OpenZeppelin/openzeppelin-contracts',
    ref: 'v4.9.3',
  },
  // What the published @account-abstraction artifacts import from OpenZeppelin: the version each release's lockfile
  // pinned (the upstream repository's yarn.lock at the release), not the one npm installs beside them here.
  '@openzeppelin/contracts': {
    repository: 'https://github.com/OpenZeppelin/openzeppelin-contracts',
  },
  '@biconomy/account@4.6.3': {
    tarball: 'https://registry.npmjs.org/@biconomy/account/-/account-4.6.3.tgz',
    repository: 'https://github.com/bcnmy/biconomy-client-sdk',
  },
}

/** This repository's own contracts (MIT, as all of Opstation), shipped in the npm package as contracts/. */
const OPSTATION_ORIGIN = 'opstation'

/** The licence identifiers a Solidity file declares (its SPDX-License-Identifier lines). */
function readSpdx(text, file) {
  const ids = [...text.matchAll(/SPDX-License-Identifier:\s*([^\s*]+)/g)].map((m) => m[1])
  if (ids.length === 0) throw new Error(`${file} declares no SPDX-License-Identifier`)
  return ids
}

/** The installed package a file belongs to, as `name@version`. */
function packageOfFile(file) {
  let dir = dirname(file)
  while (dir !== dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
      if (manifest.name && manifest.version) return `${manifest.name}@${manifest.version}`
    } catch {}
    dir = dirname(dir)
  }
  throw new Error(`no package holds ${file}`)
}

/**
 * An artifact's `source`: per origin (an npm package of CONTRACT_PACKAGES, or `opstation`), the licences its files
 * declare, sorted. `files` are absolute paths of every Solidity file compiled into the artifact. For a published
 * artifact (`published`: its package), the packages it imports are named without a version: the files read here are
 * the ones npm installed, the artifact was built with those the upstream release pinned.
 */
function describeSources(files, published) {
  const origins = new Map()
  for (const file of files) {
    const installed = file.startsWith(`${join(root, 'contracts')}/`) ? OPSTATION_ORIGIN : packageOfFile(file)
    const origin =
      published && installed !== published && installed !== OPSTATION_ORIGIN
        ? installed.replace(/@[^@/]+$/, '')
        : installed
    if (origin !== OPSTATION_ORIGIN && !CONTRACT_PACKAGES[origin]) {
      throw new Error(`${file}: its package ${origin} is not in CONTRACT_PACKAGES (where does it come from?)`)
    }
    const licences = origins.get(origin) ?? new Set()
    for (const id of readSpdx(readFileSync(file, 'utf8'), file)) licences.add(id)
    origins.set(origin, licences)
  }
  return {
    origins: [...origins]
      .sort(([a], [b]) => (a === OPSTATION_ORIGIN ? -1 : b === OPSTATION_ORIGIN ? 1 : a.localeCompare(b)))
      .map(([origin, licences]) => ({ origin, licences: [...licences].sort() })),
  }
}

/** The Solidity files `file` imports, transitively (itself included), resolved from its package as solc would. */
function importClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen
  seen.add(file)
  const text = readFileSync(file, 'utf8')
  const fromFile = createRequire(file)
  for (const [, spec] of text.matchAll(/^\s*import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm)) {
    const resolved = spec.startsWith('.') ? resolve(dirname(file), spec) : fromFile.resolve(spec)
    importClosure(resolved, seen)
  }
  return seen
}

/** [artifact export name, source unit, contract name] */
const packedTargets = [
  [
    'opstationVerifyingPaymaster',
    'contracts/opstation/packed/OpstationVerifyingPaymaster.sol',
    'OpstationVerifyingPaymaster',
  ],
  [
    'opstationTokenPaymaster',
    'contracts/opstation/packed/OpstationTokenPaymaster.sol',
    'OpstationTokenPaymaster',
  ],
  [
    'opstationVerifyingPaymasterV09',
    'contracts/opstation/packed/v09/OpstationVerifyingPaymasterV09.sol',
    'OpstationVerifyingPaymasterV09',
  ],
  [
    'opstationTokenPaymasterV09',
    'contracts/opstation/packed/v09/OpstationTokenPaymasterV09.sol',
    'OpstationTokenPaymasterV09',
  ],
]

/** [artifact export name, source unit, contract name] */
const targets = [
  ['smartAccount', 'contracts/smart-account/SmartAccount.sol', 'SmartAccount'],
  ['proxy', 'contracts/smart-account/Proxy.sol', 'Proxy'],
  ['smartAccountFactory', 'contracts/smart-account/factory/SmartAccountFactory.sol', 'SmartAccountFactory'],
  [
    'defaultCallbackHandler',
    'contracts/smart-account/handler/DefaultCallbackHandler.sol',
    'DefaultCallbackHandler',
  ],
  [
    'ecdsaOwnershipRegistryModule',
    'contracts/smart-account/modules/EcdsaOwnershipRegistryModule.sol',
    'EcdsaOwnershipRegistryModule',
  ],
  [
    'verifyingSingletonPaymaster',
    'contracts/smart-account/paymasters/verifying/singleton/VerifyingSingletonPaymaster.sol',
    'VerifyingSingletonPaymaster',
  ],
  ['biconomyTokenPaymaster', 'contracts/opstation/BiconomyTokenPaymaster.sol', 'BiconomyTokenPaymaster'],
  ['testToken', 'contracts/opstation/TestToken.sol', 'TestToken'],
]

/** Maps a source unit name to a file on disk. */
function resolveSource(unit) {
  if (unit.startsWith('contracts/smart-account/')) return join(biconomyDir, unit)
  if (unit.startsWith('contracts/opstation/'))
    return join(root, 'contracts', unit.slice('contracts/opstation/'.length))
  const aliased = /^(@account-abstraction\/contracts-v0[78])\/(.*)$/.exec(unit)
  if (aliased) return join(packageDir(aliased[1]), aliased[2])
  return require.resolve(unit)
}

function findImports(unit) {
  try {
    return { contents: readFileSync(resolveSource(unit), 'utf8') }
  } catch (err) {
    return { error: `${unit}: ${err.message}` }
  }
}

/** Collects `id -> name` of every variable declaration in the ASTs (to name immutable references). */
function collectVariableNames(node, names) {
  if (Array.isArray(node)) {
    for (const child of node) collectVariableNames(child, names)
  } else if (node && typeof node === 'object') {
    if (node.nodeType === 'VariableDeclaration' && typeof node.id === 'number') names.set(node.id, node.name)
    for (const value of Object.values(node))
      if (value && typeof value === 'object') collectVariableNames(value, names)
  }
  return names
}

function compileSolidity(compiler, targets, settings) {
  const sources = {}
  const outputSelection = { '*': { '': ['ast'] } }
  for (const [, unit, name] of targets) {
    sources[unit] = { content: readFileSync(resolveSource(unit), 'utf8') }
    outputSelection[unit] = {
      ...(outputSelection[unit] ?? {}),
      [name]: [
        'abi',
        'evm.bytecode.object',
        'evm.deployedBytecode.object',
        'evm.deployedBytecode.immutableReferences',
        'storageLayout',
        'metadata',
      ],
    }
  }
  const input = { language: 'Solidity', sources, settings: { ...settings, outputSelection } }
  const output = JSON.parse(compiler.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))

  const names = new Map()
  for (const source of Object.values(output.sources ?? {})) collectVariableNames(source.ast, names)

  const result = {}
  for (const [key, unit, name] of targets) {
    const c = output.contracts[unit][name]
    const immutables = {}
    for (const [id, refs] of Object.entries(c.evm.deployedBytecode.immutableReferences ?? {})) {
      const label = names.get(Number(id)) ?? `id${id}`
      immutables[label] = refs.map((r) => ({ start: r.start, length: r.length }))
    }
    result[key] = {
      contractName: name,
      sourceName: unit,
      compiler: { version: compiler.version(), settings },
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      immutables,
      storage: (c.storageLayout?.storage ?? []).map((s) => ({
        label: s.label,
        slot: s.slot,
        offset: s.offset,
        type: s.type,
      })),
      source: describeSources(Object.keys(JSON.parse(c.metadata).sources).map(resolveSource)),
    }
  }
  return result
}

/**
 * Copies published artifacts of one `@account-abstraction/contracts` release: `picks` is [export name, artifact].
 * The v0.7 and v0.8 releases are installed under npm aliases (`@account-abstraction/contracts-v07`, `-v08`).
 */
function copyAccountAbstractionArtifacts(packageName, picks) {
  const dir = packageDir(packageName)
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
  return Object.fromEntries(
    picks.map(([key, name]) => {
      const a = JSON.parse(readFileSync(join(dir, 'artifacts', `${name}.json`), 'utf8'))
      return [
        key,
        {
          contractName: a.contractName,
          sourceName: a.sourceName,
          package: `@account-abstraction/contracts@${version}`,
          abi: a.abi,
          bytecode: a.bytecode,
          deployedBytecode: a.deployedBytecode,
          source: describeSources(
            [...importClosure(join(dir, a.sourceName.replace(/^contracts\//, '')))],
            `@account-abstraction/contracts@${version}`,
          ),
        },
      ]
    }),
  )
}

function readSdkProxyCreationCode() {
  const text = readFileSync(join(sdkDir, 'dist/_esm/account/utils/Constants.js'), 'utf8')
  const match = /export const PROXY_CREATION_CODE = "(0x[0-9a-fA-F]+)"/.exec(text)
  if (!match) throw new Error('PROXY_CREATION_CODE not found in @biconomy/account')
  const version = JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')).version
  // The SDK's constant is the creation code of Biconomy's Proxy.sol (MIT), as the SDK ships it.
  return {
    package: `@biconomy/account@${version}`,
    creationCode: match[1],
    source: {
      origins: [
        {
          origin: `@biconomy/account@${version}`,
          licences: [JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8')).license],
        },
      ],
    },
  }
}

/** Compiles and collects every artifact. Returns a plain JSON-able object keyed by export name. */
export function buildArtifacts() {
  return {
    ...compileSolidity(solc, targets, compilerSettings),
    ...compileSolidity(solc0828, packedTargets, packedCompilerSettings),
    ...copyAccountAbstractionArtifacts('@account-abstraction/contracts', [
      ['entryPoint', 'EntryPoint'],
      ['simpleAccountFactory', 'SimpleAccountFactory'],
      ['simpleAccount', 'SimpleAccount'],
    ]),
    ...copyAccountAbstractionArtifacts('@account-abstraction/contracts-v07', [
      ['entryPointV07', 'EntryPoint'],
      ['entryPointSimulationsV07', 'EntryPointSimulations'],
      ['simpleAccountFactoryV07', 'SimpleAccountFactory'],
      ['simpleAccountV07', 'SimpleAccount'],
    ]),
    ...copyAccountAbstractionArtifacts('@account-abstraction/contracts-v08', [
      ['entryPointV08', 'EntryPoint'],
      ['entryPointSimulationsV08', 'EntryPointSimulations'],
      ['simpleAccountFactoryV08', 'SimpleAccountFactory'],
      ['simpleAccountV08', 'SimpleAccount'],
      ['simple7702AccountV08', 'Simple7702Account'],
    ]),
    sdkProxy: readSdkProxyCreationCode(),
  }
}

const header = '// Generated by scripts/build-contracts.mjs. Do not edit; run `npm run contracts:build`.\n'

/** Serializes a JSON value as TypeScript source: single quotes, unquoted identifier keys, no semicolons. */
function toTs(value, indent = '') {
  const next = `${indent}  `
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return `[\n${value.map((v) => `${next}${toTs(v, next)},`).join('\n')}\n${indent}]`
  }
  const entries = Object.entries(value)
  if (entries.length === 0) return '{}'
  const key = (k) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : `'${k}'`)
  return `{\n${entries.map(([k, v]) => `${next}${key(k)}: ${toTs(v, next)},`).join('\n')}\n${indent}}`
}

function writeArtifacts(artifacts) {
  mkdirSync(outDir, { recursive: true })
  const exports = []
  for (const [key, artifact] of Object.entries(artifacts)) {
    const name = `${key}Artifact`
    writeFileSync(join(outDir, `${key}.ts`), `${header}export const ${name} = ${toTs(artifact)} as const\n`)
    exports.push(`export { ${name} } from './${key}'`)
  }
  writeFileSync(join(outDir, 'index.ts'), `${header}${exports.join('\n')}\n`)
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const started = Date.now()
  const artifacts = buildArtifacts()
  const jsonIndex = process.argv.indexOf('--json')
  if (jsonIndex !== -1) {
    const file = process.argv[jsonIndex + 1]
    if (!file) throw new Error('--json needs a file path')
    writeFileSync(file, JSON.stringify(artifacts))
  } else {
    writeArtifacts(artifacts)
    console.log(`Wrote ${Object.keys(artifacts).length} artifacts to ${outDir} in ${Date.now() - started} ms`)
  }
}
