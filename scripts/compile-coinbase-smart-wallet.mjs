#!/usr/bin/env node
/**
 * Rebuilds Coinbase Smart Wallet v1.1 (implementation and factory) byte for byte from its sources, and records the
 * deployment calldata in `scripts/zooSources/coinbase-smart-wallet-v1.1.json`, which `record-account-zoo.mjs` reads.
 *
 * Why a build: coinbase/smart-wallet publishes no broadcast for v1.1 (only for v1) and no npm package holds its
 * bytecode. Its deployment script (`script/DeployFactory.s.sol`) names the salts and the addresses it must give
 * through Safe's singleton factory (CREATE2), and its `foundry.toml` (profile `deploy`) the compiler settings. The
 * sources are the repository at the v1.1.0 commit with its git submodules at the commits it pins (solady,
 * openzeppelin-contracts, webauthn-sol with its FreshCryptoLib, account-abstraction v0.6), compiled with solc 0.8.23
 * (npm alias `solc-0.8.23`) with the standard JSON input forge gives it: source unit names relative to the project,
 * forge's remappings, optimizer 999999 runs, viaIR, EVM shanghai (the profile says prague; forge lowers it to the
 * newest EVM 0.8.23 knows), CBOR metadata with its IPFS hash. The result is accepted only when both CREATE2 addresses
 * are the script's: a single differing byte (the metadata hash covers every source file and setting) moves them.
 *
 * As a check of the method, v1 is rebuilt the same way (its deployment commit, no viaIR, EVM paris) and compared with
 * the creation code of v1's mainnet broadcast.
 *
 * Usage: node scripts/compile-coinbase-smart-wallet.mjs <coinbase/smart-wallet> <Vectorized/solady>
 *   <OpenZeppelin/openzeppelin-contracts> <base-org/webauthn-sol> <rdubois-crypto/FreshCryptoLib>
 *   <eth-infinitism/account-abstraction> (git directories)
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { concat, encodeAbiParameters, getAddress, getContractAddress } from 'viem'

const require = createRequire(import.meta.url)
const solc = require('solc-0.8.23')
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outFile = join(root, 'scripts/zooSources/coinbase-smart-wallet-v1.1.json')

const SAFE_SINGLETON_FACTORY = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'
/** The commit "Update smart contracts to v1.1.0" and the commit "v1 deployment". */
const V1_1_COMMIT = 'a8c6456f3a6d5d2dea08d6336b3be13395cacd42'
const V1_COMMIT = 'd271f255b51423e18275eaf23bbb4c5df2ff4304'
const V1_BROADCAST = 'broadcast/DeployFactory.s.sol/8453/run-latest.json'

/** The submodules the contracts import from, by their folder name, with the repository each is and its licence. */
const SUBMODULES = {
  solady: { repository: 'Vectorized/solady', licence: 'MIT' },
  'openzeppelin-contracts': { repository: 'OpenZeppelin/openzeppelin-contracts', licence: 'MIT' },
  'webauthn-sol': { repository: 'base-org/webauthn-sol', licence: 'MIT' },
  FreshCryptoLib: { repository: 'rdubois-crypto/FreshCryptoLib', licence: 'MIT' },
  'account-abstraction': { repository: 'eth-infinitism/account-abstraction', licence: 'GPL-3.0' },
}

/** forge's remappings for the project (auto-detected from `lib/`; the repository had no remappings.txt then). */
const REMAPPINGS = [
  '@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/',
  'FreshCryptoLib/=lib/webauthn-sol/lib/FreshCryptoLib/solidity/src/',
  'account-abstraction/=lib/account-abstraction/contracts/',
  'ds-test/=lib/forge-std/lib/ds-test/src/',
  'erc4626-tests/=lib/openzeppelin-contracts/lib/erc4626-tests/',
  'forge-std/=lib/forge-std/src/',
  'openzeppelin-contracts/=lib/openzeppelin-contracts/',
  'p256-verifier/=lib/p256-verifier/',
  'safe-singleton-deployer-sol/=lib/safe-singleton-deployer-sol/',
  'solady/=lib/solady/src/',
  'webauthn-sol/=lib/webauthn-sol/src/',
]

const TARGETS = [
  ['src/CoinbaseSmartWallet.sol', 'CoinbaseSmartWallet'],
  ['src/CoinbaseSmartWalletFactory.sol', 'CoinbaseSmartWalletFactory'],
]

const gitOf =
  (gitDir) =>
  (...args) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 }).toString()

/**
 * Reads a file of the superproject at a commit, descending into a submodule where the path crosses one (a gitlink
 * in the tree): the submodule's own repository at the commit the superproject pins. Records each submodule used.
 */
function treeReader(repos, commit, used) {
  return function read(path, repo = repos.superproject, rev = commit, prefix = '') {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/')
      const entry = gitOf(repo)('ls-tree', rev, dir).trim()
      if (!entry.startsWith('160000 commit ')) continue
      const pinned = entry.split(/\s+/)[2]
      const name = parts[i - 1]
      if (!repos[name]) throw new Error(`${path}: submodule ${name} has no repository given`)
      used.set(prefix + dir, { name, commit: pinned })
      return read(parts.slice(i).join('/'), repos[name], pinned, `${prefix}${dir}/`)
    }
    return gitOf(repo)('show', `${rev}:${path}`)
  }
}

function compile(repos, commit, settings) {
  const used = new Map()
  const read = treeReader(repos, commit, used)
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(TARGETS.map(([file]) => [file, { content: read(file) }])),
    settings: {
      ...settings,
      remappings: REMAPPINGS,
      libraries: {},
      metadata: { bytecodeHash: 'ipfs', appendCBOR: true },
      outputSelection: { '*': { '*': ['evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path) => {
        try {
          return { contents: read(path) }
        } catch (error) {
          return { error: `${path}: ${error.message}` }
        }
      },
    }),
  )
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const [wallet, factory] = TARGETS.map(
    ([file, name]) => `0x${output.contracts[file][name].evm.bytecode.object}`,
  )
  return { wallet, factory, submodules: [...used].map(([path, s]) => ({ path, ...s })) }
}

/** The salts and expected addresses of `script/DeployFactory.s.sol` at a commit. */
function readDeployScript(git, commit) {
  const text = git('show', `${commit}:script/DeployFactory.s.sol`)
  const pick = (re) => {
    const m = text.match(re)
    if (!m) throw new Error(`script/DeployFactory.s.sol at ${commit}: ${re} not found`)
    return m[1]
  }
  return {
    implementation: getAddress(pick(/EXPECTED_IMPLEMENTATION = (0x[0-9a-fA-F]{40})/)),
    factory: getAddress(pick(/EXPECTED_FACTORY = (0x[0-9a-fA-F]{40})/)),
    implementationSalt: pick(
      /creationCode: type\(CoinbaseSmartWallet\)\.creationCode,\s*salt: (0x[0-9a-fA-F]{64})/,
    ),
    factorySalt: pick(/args: abi\.encode\(EXPECTED_IMPLEMENTATION\),\s*salt: (0x[0-9a-fA-F]{64})/),
  }
}

const create2 = (salt, bytecode) =>
  getContractAddress({ opcode: 'CREATE2', from: SAFE_SINGLETON_FACTORY, salt, bytecode })

const args = process.argv.slice(2).map((a) => resolve(a))
if (args.length !== 6 || !args.every((a) => existsSync(join(a, 'HEAD')))) {
  console.error(
    'usage: node scripts/compile-coinbase-smart-wallet.mjs <coinbase/smart-wallet> <Vectorized/solady> <OpenZeppelin/openzeppelin-contracts> <base-org/webauthn-sol> <rdubois-crypto/FreshCryptoLib> <eth-infinitism/account-abstraction> (git directories)',
  )
  process.exit(2)
}
const [superproject, ...libraries] = args
const repos = {
  superproject,
  ...Object.fromEntries(Object.keys(SUBMODULES).map((name, i) => [name, libraries[i]])),
}
const git = gitOf(superproject)

// The method, checked on v1: its rebuild must equal the creation code of its broadcast.
const v1 = compile(repos, V1_COMMIT, { optimizer: { enabled: true, runs: 999999 }, evmVersion: 'paris' })
const broadcast = JSON.parse(git('show', `${git('rev-parse', 'HEAD').trim()}:${V1_BROADCAST}`))
const [v1Wallet, v1Factory] = broadcast.transactions.map((t) => t.transaction.input ?? t.transaction.data)
if (`0x${v1Wallet.slice(66)}` !== v1.wallet || !`0x${v1Factory.slice(66)}`.startsWith(v1.factory))
  throw new Error(
    'the rebuild of v1 differs from its broadcast: the toolchain or the sources are not the ones used',
  )

const settings = { optimizer: { enabled: true, runs: 999999 }, viaIR: true, evmVersion: 'shanghai' }
const v1_1 = compile(repos, V1_1_COMMIT, settings)
const expected = readDeployScript(git, V1_1_COMMIT)
const factoryCode = concat([
  v1_1.factory,
  encodeAbiParameters([{ type: 'address' }], [expected.implementation]),
])
const got = {
  implementation: create2(expected.implementationSalt, v1_1.wallet),
  factory: create2(expected.factorySalt, factoryCode),
}
if (got.implementation !== expected.implementation || got.factory !== expected.factory)
  throw new Error(
    `the rebuild lands at ${got.implementation} / ${got.factory}, not at ${expected.implementation} / ${expected.factory}`,
  )

const record = {
  note: 'Generated by scripts/compile-coinbase-smart-wallet.mjs. Do not edit; re-run the script.',
  contract: 'Coinbase Smart Wallet v1.1.0',
  source: {
    repository: 'coinbase/smart-wallet',
    commit: V1_1_COMMIT,
    path: 'src/',
    licence: 'MIT',
    deployScript: 'script/DeployFactory.s.sol',
  },
  submodules: v1_1.submodules.map((s) => ({ ...s, ...SUBMODULES[s.name] })),
  compiler: { version: solc.version(), ...settings, remappings: REMAPPINGS },
  deployer: SAFE_SINGLETON_FACTORY,
  deployments: [
    {
      constant: 'COINBASE_SMART_WALLET_V1_1_IMPLEMENTATION',
      address: expected.implementation,
      data: concat([expected.implementationSalt, v1_1.wallet]),
    },
    {
      constant: 'COINBASE_SMART_WALLET_V1_1_FACTORY',
      address: expected.factory,
      data: concat([expected.factorySalt, factoryCode]),
    },
  ],
}
mkdirSync(dirname(outFile), { recursive: true })
writeFileSync(outFile, `${JSON.stringify(record, null, 2)}\n`)
console.log(`v1 rebuilt as broadcast; v1.1 lands at ${got.implementation} / ${got.factory}: wrote ${outFile}`)
