import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type { Abi } from 'viem'

const require = createRequire(import.meta.url)

/** What the callers select of each contract: its ABI and creation bytecode. */
export type SolcContractOutput = { abi: Abi; evm: { bytecode: { object: string } } }
/** The compiled outputs, in the system's temp folder, by the hash of what made them. */
const CACHE_DIR = path.join(os.tmpdir(), 'opstation-solc-outputs')

/**
 * solc's standard-JSON output for `input`, compiled by the solc package `solcPackage` of node_modules (`solc`, or
 * an alias such as `solc-0.8.28`), or read from the temp folder where an earlier compile of the same input by the
 * same solc version left it: a later run, or another worker of this one. Throws solc's errors. The key holds the package's version,
 * read from its package.json, so that a cache hit does not load the compiler (half a second). Written atomically
 * (a temp file, then a rename), so that workers compiling at once never read half a file.
 */
export function compileWithSolcCached(
  solcPackage: string,
  input: object,
): { contracts: Record<string, Record<string, SolcContractOutput>> } {
  const version = require(`${solcPackage}/package.json`).version as string
  const text = JSON.stringify(input)
  const key = createHash('sha256')
    .update(JSON.stringify([solcPackage, version, text]))
    .digest('hex')
    .slice(0, 24)
  const cacheFile = path.join(CACHE_DIR, `${key}.json`)
  try {
    return JSON.parse(readFileSync(cacheFile, 'utf8'))
  } catch {}
  const output = JSON.parse(require(solcPackage).compile(text))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0)
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  mkdirSync(CACHE_DIR, { recursive: true })
  const partial = `${cacheFile}.${process.pid}.tmp`
  writeFileSync(partial, JSON.stringify(output))
  renameSync(partial, cacheFile)
  return output
}
