#!/usr/bin/env node
/**
 * Records the EntryPoint v0.9 contracts the chain deploys, into `src/main/service/chain/artifacts/v09/`:
 *
 * - EntryPoint v0.9.0 (`0x433709009B8330FDa32311DF1C2AFA402eD8D009`, and the SenderCreator its constructor creates,
 *   `0x0A630a99Df908A81115A3022927Be82f9299987e`) and the v0.9 Simple7702Account (`0xa46cc63eBF4Bd77888AA327837d20b23A63a56B5`,
 *   viem's `toSimple7702SmartAccount({ entryPoint: '0.9' })` delegate): eth-infinitism/account-abstraction v0.9.0
 *   (commit b36a1ed52ae00da6f8a4c8d50181e2877e4fa410; EntryPoint GPL-3.0, Simple7702Account MIT). npm holds no
 *   artifact of the release: `@account-abstraction/contracts@0.9.0-rc.1` compiles (solc 0.8.28, viaIR, optimizer
 *   1,000,000 runs, EVM cancun: its artifacts are reproduced byte for byte with these settings) to other code, and
 *   lands elsewhere. The release's deployment calldata (CREATE2 salt ‖ creation code through the deterministic
 *   deployer) is read from Pimlico's bundler Alto, whose end-to-end tests deploy the canonical contracts
 *   (`test/e2e/deploy-contracts/constants.ts` at the commit below, which pins the release as its
 *   `contracts/lib/account-abstraction-v9` submodule). The calldata is accepted only when it lands at the canonical
 *   address: CREATE2 hashes the whole creation code, so it is byte for byte the release's.
 * - Their runtime code, read back from a scratch anvil (the bundled one) after deploying them there: the EntryPoint's
 *   with its immutables (EIP-712 domain, SenderCreator) zeroed, as the chain module compares it (`immutablesMasked`);
 *   the SenderCreator's and Simple7702Account's exactly.
 * - ABIs of the EntryPoint and Simple7702Account, and the EntryPointSimulations the service simulates with (its own
 *   code put at the EntryPoint's address by a state override, never deployed), from
 *   `@account-abstraction/contracts@0.9.0-rc.1` (MIT package; the ABI of the release's EntryPoint is the rc's).
 *
 * Usage: node scripts/record-entrypoint-v09.mjs <alto git directory> <unpacked @account-abstraction/contracts@0.9.0-rc.1>
 *   (`npm pack @account-abstraction/contracts@0.9.0-rc.1` and untar it; the second argument is its `package/`)
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestClient, getContractAddress, http, publicActions, slice, walletActions } from 'viem'
import { foundry } from 'viem/chains'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outDir = join(root, 'src/main/service/chain/artifacts/v09')

const ALTO_COMMIT = 'b2bc09c6760713acfc33345bb64a20e578b0e81a'
const ALTO_FILE = 'test/e2e/deploy-contracts/constants.ts'
const RELEASE = 'eth-infinitism/account-abstraction v0.9.0 (b36a1ed52ae00da6f8a4c8d50181e2877e4fa410)'
const RC_PACKAGE = '@account-abstraction/contracts@0.9.0-rc.1'
const CREATE2_DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

const CONTRACTS = [
  {
    key: 'entryPointV09',
    contractName: 'EntryPoint',
    constant: 'ENTRY_POINT_V09_CREATECALL',
    address: '0x433709009B8330FDa32311DF1C2AFA402eD8D009',
    licence: 'GPL-3.0',
    maskImmutables: true,
  },
  {
    key: 'simple7702AccountV09',
    contractName: 'Simple7702Account',
    constant: 'SIMPLE_7702_ACCOUNT_IMPLEMENTATION_V09_CREATECALL',
    address: '0xa46cc63eBF4Bd77888AA327837d20b23A63a56B5',
    licence: 'MIT',
    maskImmutables: false,
  },
]
const SENDER_CREATOR = '0x0A630a99Df908A81115A3022927Be82f9299987e'

const [altoDir, rcDir] = process.argv.slice(2)
if (!altoDir || !rcDir) {
  console.error('Usage: node scripts/record-entrypoint-v09.mjs <alto git directory> <unpacked rc.1 package>')
  process.exit(2)
}
const rcVersion = JSON.parse(readFileSync(join(rcDir, 'package.json'), 'utf8')).version
if (`@account-abstraction/contracts@${rcVersion}` !== RC_PACKAGE)
  throw new Error(`${rcDir} is not ${RC_PACKAGE}`)
const rcArtifact = (name) => JSON.parse(readFileSync(join(rcDir, 'artifacts', `${name}.json`), 'utf8'))

const constants = execFileSync('git', ['--git-dir', altoDir, 'show', `${ALTO_COMMIT}:${ALTO_FILE}`], {
  encoding: 'utf8',
})
const createCall = (name) => {
  const match = constants.match(new RegExp(`${name}: Hex =\\s*"(0x[0-9a-fA-F]+)"`))
  if (!match) throw new Error(`${ALTO_FILE} has no ${name}`)
  return match[1].toLowerCase()
}

/** Offsets of the 32-byte values of `PUSH32` instructions (push data skipped, as in patchImmutables.ts). */
function push32Offsets(hex) {
  const bytes = Buffer.from(hex.slice(2), 'hex')
  const offsets = []
  for (let i = 0; i < bytes.length; ) {
    const op = bytes[i]
    if (op === 0x7f) offsets.push(i + 1)
    i += op >= 0x60 && op <= 0x7f ? op - 0x5f + 1 : 1
  }
  return offsets
}

/**
 * The runtime code as the compiler emitted it (its immutables `PUSH32 0`): the stretch of the creation code that
 * equals the deployed code everywhere but in PUSH32 values, which must be zero there.
 */
function runtimeTemplate(initCode, runtime) {
  const init = initCode.slice(2)
  const code = runtime.slice(2)
  const tail = code.slice(-106) // the CBOR metadata: ipfs hash and solc version, unique to this contract
  const end = init.indexOf(tail) + tail.length
  if (end < tail.length) throw new Error('the runtime metadata is not in the creation code')
  const template = init.slice(end - code.length, end)
  let masked = code
  for (const offset of push32Offsets(runtime)) {
    const word = template.slice(offset * 2, offset * 2 + 64)
    if (word === '0'.repeat(64)) masked = masked.slice(0, offset * 2) + word + masked.slice(offset * 2 + 64)
  }
  if (masked !== template)
    throw new Error('the deployed code differs from the creation code beyond its immutables')
  return `0x${template}`
}

async function readDeployedCode(calls) {
  const anvilPath = join(root, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
  const port = 20_000 + Math.floor(Math.random() * 10_000)
  const anvil = spawn(anvilPath, ['--port', String(port), '--hardfork', 'prague', '--silent'], {
    stdio: 'ignore',
  })
  try {
    const client = createTestClient({
      chain: foundry,
      mode: 'anvil',
      transport: http(`http://127.0.0.1:${port}`),
    })
      .extend(publicActions)
      .extend(walletActions)
    for (let i = 0; ; i++) {
      try {
        await client.getChainId()
        break
      } catch (error) {
        if (i > 50) throw error
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    const [from] = await client.getAddresses()
    for (const data of calls) {
      const hash = await client.sendTransaction({
        account: from,
        to: CREATE2_DEPLOYER,
        data,
        gas: 15_000_000n,
      })
      await client.waitForTransactionReceipt({ hash })
    }
    const read = async (address) => (await client.getCode({ address })) ?? '0x'
    return {
      codes: await Promise.all(CONTRACTS.map((c) => read(c.address))),
      senderCreator: await read(SENDER_CREATOR),
    }
  } finally {
    anvil.kill()
  }
}

const calls = CONTRACTS.map((c) => createCall(c.constant))
CONTRACTS.forEach((c, i) => {
  const landed = getContractAddress({
    opcode: 'CREATE2',
    from: CREATE2_DEPLOYER,
    salt: slice(calls[i], 0, 32),
    bytecode: slice(calls[i], 32),
  })
  if (landed !== c.address) throw new Error(`${c.constant} lands at ${landed}, not ${c.address}`)
})
const { codes, senderCreator } = await readDeployedCode(calls)
if (getContractAddress({ from: CONTRACTS[0].address, nonce: 1n }) !== SENDER_CREATOR)
  throw new Error('the SenderCreator is not the EntryPoint constructor’s first creation')

const header = '// Generated by scripts/record-entrypoint-v09.mjs. Do not edit; run it again.\n'
const json = (value) => JSON.stringify(value, null, 2)
mkdirSync(outDir, { recursive: true })
const names = []
CONTRACTS.forEach((c, i) => {
  const initCode = slice(calls[i], 32)
  const artifact = {
    contractName: c.contractName,
    source: RELEASE,
    licence: c.licence,
    deploymentCalldata: `${ALTO_FILE} of pimlicolabs/alto at ${ALTO_COMMIT} (${c.constant})`,
    address: c.address,
    salt: slice(calls[i], 0, 32),
    bytecode: initCode,
    deployedBytecode: c.maskImmutables ? runtimeTemplate(initCode, codes[i]) : codes[i],
    immutablesMasked: c.maskImmutables,
    abi: rcArtifact(c.contractName).abi,
  }
  names.push(c.key)
  writeFileSync(
    join(outDir, `${c.key}.ts`),
    `${header}export const ${c.key}Artifact = ${json(artifact)} as const\n`,
  )
})
writeFileSync(
  join(outDir, 'senderCreatorV09.ts'),
  `${header}export const senderCreatorV09Artifact = ${json({
    contractName: 'SenderCreator',
    source: RELEASE,
    licence: 'GPL-3.0',
    address: SENDER_CREATOR,
    deployedBytecode: senderCreator,
  })} as const\n`,
)
names.push('senderCreatorV09')
const simulations = rcArtifact('EntryPointSimulations')
writeFileSync(
  join(outDir, 'entryPointSimulationsV09.ts'),
  `${header}export const entryPointSimulationsV09Artifact = ${json({
    contractName: 'EntryPointSimulations',
    package: RC_PACKAGE,
    licence: 'GPL-3.0',
    abi: simulations.abi,
    deployedBytecode: simulations.deployedBytecode,
  })} as const\n`,
)
names.push('entryPointSimulationsV09')
writeFileSync(
  join(outDir, 'index.ts'),
  `${header}${names.map((n) => `export { ${n}Artifact } from './${n}'`).join('\n')}\n`,
)
console.log(`Wrote ${names.length} artifacts to ${outDir}`)
