import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { viemSnippet } from '../../../src/renderer/src/lib/snippets'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { createDapp } from '../paymaster/paymasterTestKit'

const run = promisify(execFile)

describe("the Overview's viem snippet (EntryPoint v0.7)", () => {
  let service: TestService
  let dir: string

  beforeAll(async () => {
    service = await startTestService()
    // Inside the repository, so the snippet's imports resolve to the installed viem and permissionless.
    dir = await mkdtemp(path.join(process.cwd(), 'test', '.snippet-'))
  })
  afterAll(async () => {
    await service?.dispose()
    await rm(dir, { recursive: true, force: true })
  })

  it('runs as pasted with node: a new v0.7 SimpleAccount sends one sponsored UserOperation and prints its receipt', async () => {
    const { paymasterUrl } = await createDapp(service)
    const code = viemSnippet({
      bundlerUrl: service.info().bundlerUrl,
      paymasterUrl,
      rpcUrl: service.info().rpcUrl!,
      chainId: service.chain!.chainId,
    })
    const file = path.join(dir, 'snippet.mjs')
    await writeFile(file, code)
    const { stdout } = await run(process.execPath, [file], { timeout: 60_000 })
    expect(stdout.trim()).toMatch(/^true 0x[0-9a-f]{64}$/)
  }, 90_000)
})
