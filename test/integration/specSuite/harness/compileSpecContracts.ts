import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Abi, Hex } from 'viem'
import { compileWithSolcCached } from '../../../helpers/compileWithSolcCached'

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
 * The optimizer takes solc-js about 15 s, so the output is kept in the system's temp folder (compileWithSolcCached):
 * a later run (or another worker) reads it instead, without loading the compiler.
 */
export function compileSpecContracts(): Record<SpecContractName, SpecArtifact> {
  if (compiled) return compiled
  const input = {
    language: 'Solidity',
    sources: { 'SpecSuiteRules.sol': { content: readFileSync(SOURCE, 'utf8') } },
    settings: SETTINGS,
  }
  const output = compileWithSolcCached('solc-0.8.28', input)
  const artifact = (name: SpecContractName): SpecArtifact => {
    const contract = output.contracts['SpecSuiteRules.sol']?.[name]
    if (!contract) throw new Error(`solc did not compile ${name}`)
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  }
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
  return compiled
}
