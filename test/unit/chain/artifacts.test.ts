import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import * as artifacts from '../../../src/main/service/chain/artifacts'

const run = promisify(execFile)

describe('contract artifacts', () => {
  it('are current: recompiling the sources gives exactly the committed artifacts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'opstation-artifacts-'))
    try {
      const file = join(dir, 'artifacts.json')
      await run(process.execPath, ['scripts/build-contracts.mjs', '--json', file], { maxBuffer: 1 << 26 })
      const fresh = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
      const committed = Object.fromEntries(
        Object.entries(artifacts).map(([name, value]) => [name.replace(/Artifact$/, ''), value]),
      )
      expect(Object.keys(committed).sort()).toEqual(Object.keys(fresh).sort())
      for (const [name, artifact] of Object.entries(fresh)) {
        expect(
          JSON.parse(JSON.stringify(committed[name])),
          `${name} is stale: run npm run contracts:build`,
        ).toEqual(artifact)
      }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
    // Its time-out is the contracts project's (vitest.config.ts): a solc run takes one to three minutes by load.
  })

  it('record the compiler settings of biconomy-protocol.md §3 (solc 0.8.17, optimizer 800 runs, viaIR)', () => {
    for (const artifact of [artifacts.smartAccountArtifact, artifacts.biconomyTokenPaymasterArtifact]) {
      expect(artifact.compiler.version).toMatch(/^0\.8\.17\+/)
      expect(artifact.compiler.settings).toMatchObject({
        optimizer: { enabled: true, runs: 800 },
        viaIR: true,
      })
    }
  })
})
