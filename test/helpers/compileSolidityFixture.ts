import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Abi, Hex } from 'viem'
import { compileWithSolcCached } from './compileWithSolcCached'

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/contracts')

export type SolidityArtifact = { abi: Abi; bytecode: Hex }

const compiled = new Map<string, Record<string, SolidityArtifact>>()

/**
 * Compiles test/fixtures/contracts/`fileName` with the solc of node_modules (once per process, and read from the
 * temp folder's cache when an earlier process compiled the same source): every contract of the file by name, with
 * its ABI and creation bytecode.
 */
export function compileSolidityFixture(fileName: string): Record<string, SolidityArtifact> {
  const cached = compiled.get(fileName)
  if (cached) return cached
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: readFileSync(path.join(FIXTURES, fileName), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const output = compileWithSolcCached('solc', input)
  const contracts: Record<string, SolidityArtifact> = {}
  for (const [name, c] of Object.entries(output.contracts[fileName] ?? {}))
    contracts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  compiled.set(fileName, contracts)
  return contracts
}
