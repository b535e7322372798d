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
 *     `@account-abstraction/contracts@0.8.0` (IPaymaster and PackedUserOperation, identical in 0.7.0).
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
  return { package: `@biconomy/account@${version}`, creationCode: match[1] }
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
