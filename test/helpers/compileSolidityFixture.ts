import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type { Abi, Hex } from 'viem'

const require = createRequire(import.meta.url)
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/contracts')

export type SolidityArtifact = { abi: Abi; bytecode: Hex }

const compiled = new Map<string, Record<string, SolidityArtifact>>()

/**
 * Compiles test/fixtures/contracts/`fileName` with the solc of node_modules (once per process): every contract of
 * the file by name, with its ABI and creation bytecode.
 */
export function compileSolidityFixture(fileName: string): Record<string, SolidityArtifact> {
  const cached = compiled.get(fileName)
  if (cached) return cached
  const solc = require('solc')
  const input = {
    language: 'Solidity',
    sources: { [fileName]: { content: readFileSync(path.join(FIXTURES, fileName), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  const contracts: Record<string, SolidityArtifact> = {}
  for (const [name, c] of Object.entries<{ abi: Abi; evm: { bytecode: { object: string } } }>(
    output.contracts[fileName],
  ))
    contracts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }
  compiled.set(fileName, contracts)
  return contracts
}
