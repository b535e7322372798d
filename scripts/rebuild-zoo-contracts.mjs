#!/usr/bin/env node
/**
 * Rebuilds, byte for byte from their sources, the account-zoo contracts whose creation code nobody publishes, and
 * records their deployment calldata in `scripts/zooSources/<build>.json`, which `record-account-zoo.mjs` reads:
 *
 * - Coinbase Smart Wallet v1.1 (viem's `toCoinbaseSmartAccount({ version: '1.1' })`): coinbase/smart-wallet publishes
 *   a broadcast for v1 only. Its deployment script (`script/DeployFactory.s.sol`) names the salts and the addresses
 *   through Safe's singleton factory; its `foundry.toml` (profile `deploy`) the settings.
 * - The Solady ERC-4337 account and factory that viem's `toSoladySmartAccount` defaults to: viem's own test contracts
 *   (`contracts/src/accounts/SoladyAccount_07.sol` and its factory over Solady's ERC4337 and ERC4337Factory), deployed
 *   by viem's script `contracts/scripts/deploy/SoladyAccount_07.s.sol` through the CREATE2 deployer, salt 1337, from
 *   the commit that made the factory viem's default.
 *
 * Each is compiled as forge compiled it: the repository at the commit, with its git submodules at the commits it pins
 * (read through the gitlinks), source unit names relative to the foundry project, forge's remappings, the compiler
 * version and settings forge used (solc from npm, aliases `solc-0.8.x`), CBOR metadata with its IPFS hash. A build is
 * accepted only when its contracts land at their canonical CREATE2 addresses: the metadata hash covers every source
 * file and setting, so a single differing byte anywhere moves them. The Coinbase method is also checked on v1, whose
 * rebuild must equal the creation code of its published broadcast.
 *
 * - Biconomy's ComposableExecutionModule at MEE 1.0.0's address (bcnmy/composability, artifacts not committed): its
 *   npm dependencies were unpinned GitHub repositories, read at the commits in the build's `packages`.
 *
 * Usage: node scripts/rebuild-zoo-contracts.mjs [--only <file>] <git directory>...
 *   Every repository a build reads (the projects and their submodules: coinbase/smart-wallet, wevm/viem,
 *   Vectorized/solady, OpenZeppelin/openzeppelin-contracts, base-org/webauthn-sol, rdubois-crypto/FreshCryptoLib,
 *   eth-infinitism/account-abstraction), in any order: each commit is looked up in all of them.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { concat, encodeAbiParameters, getContractAddress } from 'viem'

const require = createRequire(import.meta.url)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'scripts/zooSources')

const SAFE_SINGLETON_FACTORY = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'
const CREATE2_DEPLOYER = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
const addressArgument = (address) => encodeAbiParameters([{ type: 'address' }], [address])

/** forge's remappings for coinbase/smart-wallet (auto-detected from `lib/`: the repository had no remappings.txt). */
const COINBASE_REMAPPINGS = [
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

/** The licence of each repository a build reads (what the recorded file names). */
const LICENCES = {
  'coinbase/smart-wallet': 'MIT',
  'wevm/viem': 'MIT (the Solidity files: Unlicense)',
  'Vectorized/solady': 'MIT',
  'OpenZeppelin/openzeppelin-contracts': 'MIT',
  'base-org/webauthn-sol': 'MIT',
  'rdubois-crypto/FreshCryptoLib': 'MIT',
  'eth-infinitism/account-abstraction': 'GPL-3.0',
  'foundry-rs/forge-std': 'MIT or Apache-2.0',
  'bcnmy/composability': 'MIT',
  'rhinestonewtf/module-bases': 'AGPL-3.0-only',
  'erc7579/erc7579-implementation': 'MIT',
  'rhinestonewtf/sentinellist': 'MIT',
}

/** Each build: where its sources are, how forge compiled them, and where each contract must land. */
const BUILDS = [
  {
    file: 'coinbase-smart-wallet-v1.1.json',
    contract: 'Coinbase Smart Wallet v1.1.0',
    repository: 'coinbase/smart-wallet',
    commit: 'a8c6456f3a6d5d2dea08d6336b3be13395cacd42', // "Update smart contracts to v1.1.0"
    project: '',
    deployScript: 'script/DeployFactory.s.sol',
    // profile `deploy`: evm_version prague, which forge lowers to the newest EVM solc 0.8.23 knows
    compiler: 'solc-0.8.23',
    settings: { optimizer: { enabled: true, runs: 999999 }, viaIR: true, evmVersion: 'shanghai' },
    remappings: COINBASE_REMAPPINGS,
    deployer: SAFE_SINGLETON_FACTORY,
    targets: [
      {
        constant: 'COINBASE_SMART_WALLET_V1_1_IMPLEMENTATION',
        source: 'src/CoinbaseSmartWallet.sol',
        name: 'CoinbaseSmartWallet',
        salt: '0x3771220e68256b8d5aa359fe953bf594dad1a5473239d1251256f0e5e7473b16',
        address: '0x00000110dCdEdC9581cb5eCB8467282f2926534d',
      },
      {
        constant: 'COINBASE_SMART_WALLET_V1_1_FACTORY',
        source: 'src/CoinbaseSmartWalletFactory.sol',
        name: 'CoinbaseSmartWalletFactory',
        salt: '0x0000000000000000000000000000000000000000e8448b6b950698874d6a35bd',
        args: ([implementation]) => addressArgument(implementation),
        address: '0xBA5ED110eFDBa3D005bfC882d75358ACBbB85842',
      },
    ],
    // v1 ("v1 deployment"), rebuilt the same way with its own settings, must equal its Base broadcast.
    check: {
      commit: 'd271f255b51423e18275eaf23bbb4c5df2ff4304',
      settings: { optimizer: { enabled: true, runs: 999999 }, evmVersion: 'paris' },
      broadcast: 'broadcast/DeployFactory.s.sol/8453/run-latest.json',
    },
  },
  {
    file: 'solady-account-v0.7.json',
    contract: "viem's Solady ERC-4337 account for EntryPoint v0.7 (SoladyAccount07) and its factory",
    repository: 'wevm/viem',
    commit: 'c693c72dfe5045bced442a001ae1a4d95083923c', // "wip: solady deployments" (PR #2510)
    project: 'contracts/',
    deployScript: 'contracts/scripts/deploy/SoladyAccount_07.s.sol',
    // forge's defaults then (optimizer on, 200 runs, EVM paris) and the newest solc the pragmas allowed
    compiler: 'solc-0.8.26',
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris' },
    remappings: [
      'solady/=lib/solady/src/',
      'solady-dc09481/=lib/solady-dc09481/src/',
      'ds-test/=lib/solady-dc09481/lib/ds-test/src/',
      'forge-std/=lib/forge-std/src/',
    ],
    deployer: CREATE2_DEPLOYER,
    targets: [
      {
        constant: 'SOLADY_ACCOUNT_V07_IMPLEMENTATION',
        source: 'src/accounts/SoladyAccount_07.sol',
        name: 'SoladyAccount07',
        salt: `0x${(1337).toString(16).padStart(64, '0')}`,
      },
      {
        constant: 'SOLADY_ACCOUNT_V07_FACTORY',
        source: 'src/accounts/SoladyAccountFactory_07.sol',
        name: 'SoladyAccountFactory07',
        salt: `0x${(1337).toString(16).padStart(64, '0')}`,
        args: ([implementation]) => addressArgument(implementation),
        address: '0x5d82735936c6Cd5DE57cC3c1A799f6B2E6F933Df',
      },
    ],
  },
  {
    file: 'biconomy-composable-execution-module-v1.0.0.json',
    contract: "Biconomy's ComposableExecutionModule (MEE 1.0.0's composable module)",
    repository: 'bcnmy/composability',
    commit: '0231e3d9834700190476f79b5c6aad529ca81ed2', // "aa": the salt of 0x00000004430bB055… and the EntryPoint argument
    project: '',
    deployScript: 'scripts/foundry/DeployComposModule.s.sol',
    // foundry.toml: solc 0.8.27, via-IR, 9999 runs, cancun, bytecode_hash "none" (no metadata hash in the code)
    compiler: 'solc-0.8.27',
    settings: { optimizer: { enabled: true, runs: 9999 }, viaIR: true, evmVersion: 'cancun' },
    bytecodeHash: 'none',
    remappings: [
      'forge-std/=lib/forge-std/src/',
      'module-bases/=node_modules/@rhinestone/module-bases/src/',
      'erc7579/=node_modules/erc7579/src/',
      'account-abstraction/=node_modules/account-abstraction/contracts/',
      'solady/=node_modules/solady/src/',
      'sentinellist/=node_modules/@rhinestone/sentinellist/src/',
    ],
    // Its npm dependencies were unpinned GitHub repositories (package.json, no lock file): each at the last commit of
    // its default branch before the deployment (v0.7.0 for account-abstraction, which it pins). Imports that the
    // project's remappings leave as they are resolve as forge resolved them: OpenZeppelin's package, and erc7579's own
    // `src/` (a context remapping forge derives for it).
    packages: [
      [
        'node_modules/@rhinestone/module-bases/',
        'rhinestonewtf/module-bases',
        '201f1dd92212a5875db330030af9e33f55b899e3',
        '',
      ],
      [
        'node_modules/erc7579/',
        'erc7579/erc7579-implementation',
        '16138d1afd4e9711f6c1425133538837bd7787b5',
        '',
      ],
      [
        'node_modules/account-abstraction/',
        'eth-infinitism/account-abstraction',
        '7af70c8993a6f42973f520ae0752386a5032abe7',
        '',
      ],
      ['node_modules/solady/', 'Vectorized/solady', 'e32bc2f5e7d4268d4d4909ae1729e194b9efda18', ''],
      [
        'node_modules/@rhinestone/sentinellist/',
        'rhinestonewtf/sentinellist',
        'e722c5cc68c570d535bc3c9f85b3ce90cdc38807',
        '',
      ],
      [
        '@openzeppelin/contracts/',
        'OpenZeppelin/openzeppelin-contracts',
        '1873ecb38e0833fa3552f58e639eeeb134b82135',
        'contracts/',
      ],
      ['src/', 'erc7579/erc7579-implementation', '16138d1afd4e9711f6c1425133538837bd7787b5', 'src/'],
    ],
    deployer: CREATE2_DEPLOYER,
    targets: [
      {
        constant: 'BICONOMY_MEE_V1_0_COMPOSABLE_MODULE',
        source: 'contracts/ComposableExecutionModule.sol',
        name: 'ComposableExecutionModule',
        salt: '0x0000000000000000000000000000000000000000c70592372479f3017cb3143d',
        args: () => addressArgument('0x0000000071727De22E5E9d8BAf0edAc6f37da032'),
        address: '0x00000004430bB055dB66eBef6Fe5Ee1DA9668B10',
      },
    ],
  },
]

/** Runs git in whichever given repository holds the commit. */
function gitWith(gitDirs) {
  const holder = new Map()
  const git = (gitDir, ...args) =>
    execFileSync('git', ['--git-dir', gitDir, ...args], {
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString()
  return (commit, ...args) => {
    if (!holder.has(commit)) {
      const dir = gitDirs.find((d) => {
        try {
          git(d, 'cat-file', '-e', `${commit}^{commit}`)
          return true
        } catch {
          return false
        }
      })
      if (!dir) throw new Error(`commit ${commit} is in none of the repositories given`)
      holder.set(commit, dir)
    }
    return git(holder.get(commit), ...args)
  }
}

/**
 * Reads a file of the project at a commit, descending into a submodule where the path crosses one (a gitlink in
 * the tree): the submodule at the commit the superproject pins. Records each submodule read.
 */
function treeReader(git, commit, used) {
  return function read(path, rev = commit, prefix = '') {
    const parts = path.split('/')
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/')
      const entry = git(rev, 'ls-tree', rev, dir).trim()
      if (!entry.startsWith('160000 commit ')) continue
      const pinned = entry.split(/\s+/)[2]
      used.set(`${prefix}${dir}`, pinned)
      return read(parts.slice(i).join('/'), pinned, `${prefix}${dir}/`)
    }
    return git(rev, 'show', `${rev}:${path}`)
  }
}

/** Compiles the build's targets at a commit as forge did: its creation code by target, and the submodules read. */
function compile(git, build, commit, settings) {
  const used = new Map()
  const readTree = treeReader(git, commit, used)
  const read = (path) => {
    const pkg = (build.packages ?? []).find(([prefix]) => path.startsWith(prefix))
    if (!pkg) return readTree(`${build.project}${path}`)
    const [prefix, , pinned, dir] = pkg
    return git(pinned, 'show', `${pinned}:${dir}${path.slice(prefix.length)}`)
  }
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(build.targets.map((t) => [t.source, { content: read(t.source) }])),
    settings: {
      ...settings,
      remappings: build.remappings,
      libraries: {},
      metadata: { bytecodeHash: build.bytecodeHash ?? 'ipfs', appendCBOR: true },
      outputSelection: { '*': { '*': ['evm.bytecode.object'] } },
    },
  }
  const solc = require(build.compiler)
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
  return {
    compiler: solc.version(),
    creationCodes: build.targets.map((t) => `0x${output.contracts[t.source][t.name].evm.bytecode.object}`),
    submodules: [...used].map(([path, pinned]) => ({
      path: path.slice(build.project.length),
      commit: pinned,
    })),
  }
}

/** The rebuild of v1 must be its broadcast's creation code (each transaction's calldata: salt ‖ creation code). */
function checkMethod(git, build) {
  const { creationCodes } = compile(git, build, build.check.commit, build.check.settings)
  const head = git(build.commit, 'rev-parse', 'HEAD').trim()
  const broadcast = JSON.parse(git(build.commit, 'show', `${head}:${build.check.broadcast}`))
  const inputs = broadcast.transactions.map(
    (t) => `0x${(t.transaction.input ?? t.transaction.data).slice(66)}`,
  )
  if (!creationCodes.every((code, i) => inputs[i]?.startsWith(code)))
    throw new Error(
      `${build.contract}: the rebuild of ${build.check.commit} differs from ${build.check.broadcast}`,
    )
}

function rebuild(git, build) {
  if (build.check) checkMethod(git, build)
  const { compiler, creationCodes, submodules } = compile(git, build, build.commit, build.settings)
  const landed = []
  const deployments = build.targets.map((target, i) => {
    const code = concat([creationCodes[i], target.args ? target.args(landed) : '0x'])
    const address = getContractAddress({
      opcode: 'CREATE2',
      from: build.deployer,
      salt: target.salt,
      bytecode: code,
    })
    landed.push(address)
    if (target.address && address !== target.address)
      throw new Error(`${build.contract}: ${target.name} lands at ${address}, not at ${target.address}`)
    return { constant: target.constant, address, data: concat([target.salt, code]) }
  })
  const submoduleRepositories = submodules.map((s) => ({
    ...s,
    repository: repositoryOf(git, build, s.path),
  }))
  return {
    note: 'Generated by scripts/rebuild-zoo-contracts.mjs. Do not edit; re-run the script.',
    contract: build.contract,
    source: {
      repository: build.repository,
      commit: build.commit,
      path: build.project || '/',
      licence: LICENCES[build.repository],
      deployScript: build.deployScript,
    },
    submodules: submoduleRepositories.map((s) => ({ ...s, licence: LICENCES[s.repository] })),
    ...(build.packages && {
      packages: [...new Map(build.packages.map(([, repository, commit]) => [repository, commit]))].map(
        ([repository, commit]) => ({ repository, commit, licence: LICENCES[repository] }),
      ),
    }),
    compiler: {
      version: compiler,
      ...build.settings,
      ...(build.bytecodeHash && { bytecodeHash: build.bytecodeHash }),
      remappings: build.remappings,
    },
    deployer: build.deployer,
    deployments,
  }
}

/** The repository a submodule path names, from the `.gitmodules` of the repository holding it. */
function repositoryOf(git, build, path) {
  const parts = path.split('/lib/')
  let rev = build.commit
  let base = ''
  for (const [i, part] of parts.entries()) {
    const sub = i === 0 ? `${build.project}${part}` : `lib/${part}`
    const modules = git(rev, 'show', `${rev}:.gitmodules`)
    const url = [...modules.matchAll(/path = (.+)\n\s*url = (.+)/g)].find(([, p]) => p.trim() === sub)?.[2]
    if (!url) throw new Error(`${sub}: not in .gitmodules at ${rev}`)
    base = url
      .trim()
      .replace(/^.*github\.com[:/]/, '')
      .replace(/\.git$/, '')
    rev = git(rev, 'ls-tree', rev, sub).trim().split(/\s+/)[2]
  }
  return REPOSITORY_NAMES[base.toLowerCase()] ?? base
}

/** GitHub's spelling of the repositories some `.gitmodules` write in lower case. */
const REPOSITORY_NAMES = Object.fromEntries(Object.keys(LICENCES).map((name) => [name.toLowerCase(), name]))

/** `--only <file>` rebuilds one build (each needs only its own repositories). */
const onlyAt = process.argv.indexOf('--only')
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined
const gitDirs = process.argv
  .slice(2)
  .filter((a, i, all) => a !== '--only' && all[i - 1] !== '--only')
  .map((a) => resolve(a))
if (!gitDirs.length || !gitDirs.every((d) => existsSync(join(d, 'HEAD')))) {
  console.error(
    'usage: node scripts/rebuild-zoo-contracts.mjs <git directory>... (coinbase/smart-wallet, wevm/viem and the submodules they pin)',
  )
  process.exit(2)
}
const git = gitWith(gitDirs)
mkdirSync(outDir, { recursive: true })
for (const build of BUILDS.filter((b) => !only || b.file === only)) {
  const record = rebuild(git, build)
  writeFileSync(join(outDir, build.file), `${JSON.stringify(record, null, 2)}\n`)
  console.log(
    `${build.contract}: ${record.deployments.map((d) => d.address).join(', ')}: wrote scripts/zooSources/${build.file}`,
  )
}
