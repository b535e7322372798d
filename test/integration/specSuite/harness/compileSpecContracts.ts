import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type { Abi, Hex } from 'viem'

const require = createRequire(import.meta.url)
const SOURCE = path.resolve(import.meta.dirname, '../../../fixtures/contracts/SpecSuiteRules.sol')
/** The suite's own settings: solc 0.8.28, Cancun, optimized for size (the account factory nears the size limit). */
const SETTINGS = {
  evmVersion: 'cancun',
  optimizer: { enabled: true, runs: 1 },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
}

export type SpecArtifact = { abi: Abi; bytecode: Hex }
export type SpecContractName =
  | 'SpecAccount'
  | 'SpecAccountFactory'
  | 'SpecCoin'
  | 'SpecFactory'
  | 'SpecPaymaster'
  | 'SpecState'
  | 'SpecWallet'

let compiled: Record<SpecContractName, SpecArtifact> | undefined

/**
 * The spec-suite contracts (test/fixtures/contracts/SpecSuiteRules.sol), compiled with solc 0.8.28 from node_modules.
 * The optimizer takes solc-js about 15 s, so the output is kept in the system's temp folder under the hash of the
 * source and settings: a later run (or another worker) reads it instead.
 */
export function compileSpecContracts(): Record<SpecContractName, SpecArtifact> {
  if (compiled) return compiled
  const source = readFileSync(SOURCE, 'utf8')
  const solc = require('solc-0.8.28')
  const key = createHash('sha256')
    .update(JSON.stringify([solc.version(), SETTINGS, source]))
    .digest('hex')
    .slice(0, 16)
  const cacheDir = path.join(os.tmpdir(), 'opstation-spec-suite')
  const cacheFile = path.join(cacheDir, `${key}.json`)
  try {
    compiled = JSON.parse(readFileSync(cacheFile, 'utf8'))
    return compiled as Record<SpecContractName, SpecArtifact>
  } catch {}
  const input = {
    language: 'Solidity',
    sources: { 'SpecSuiteRules.sol': { content: source } },
    settings: SETTINGS,
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const contracts = output.contracts['SpecSuiteRules.sol']
  const artifact = (name: SpecContractName): SpecArtifact => ({
    abi: contracts[name].abi,
    bytecode: `0x${contracts[name].evm.bytecode.object}`,
  })
  const names: SpecContractName[] = [
    'SpecAccount',
    'SpecAccountFactory',
    'SpecCoin',
    'SpecFactory',
    'SpecPaymaster',
    'SpecState',
    'SpecWallet',
  ]
  compiled = Object.fromEntries(names.map((name) => [name, artifact(name)])) as Record<
    SpecContractName,
    SpecArtifact
  >
  mkdirSync(cacheDir, { recursive: true })
  const partial = `${cacheFile}.${process.pid}.tmp`
  writeFileSync(partial, JSON.stringify(compiled))
  renameSync(partial, cacheFile)
  return compiled
}
