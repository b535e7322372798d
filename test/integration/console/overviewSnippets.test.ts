import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  biconomySnippet,
  curlSnippet,
  type SnippetInput,
  viemSnippet,
} from '../../../src/renderer/src/lib/snippets'
import { createSnippetProject, readImportedPackages } from '../../helpers/snippetProject'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { createDapp } from '../paymaster/paymasterTestKit'

/**
 * The Overview's snippets, filled with this service's URLs, run as pasted in a fresh ESM project outside the
 * repository that holds only the packages each snippet imports.
 */
describe("the Overview's snippets run as pasted", () => {
  let service: TestService
  let input: SnippetInput

  beforeAll(async () => {
    service = await startTestService()
    const { paymasterUrl } = await createDapp(service)
    input = {
      bundlerUrl: service.info().bundlerUrl,
      paymasterUrl,
      rpcUrl: service.info().rpcUrl!,
      chainId: service.chain!.chainId,
    }
  })
  afterAll(async () => {
    await service?.dispose()
  })

  it('viem + permissionless: a new v0.7 SimpleAccount sends one sponsored UserOperation and prints its receipt', async () => {
    const code = viemSnippet(input)
    expect(readImportedPackages(code)).toEqual(['permissionless', 'viem'])
    const project = await createSnippetProject(readImportedPackages(code))
    const { stdout } = await project.run('snippet.mjs', code)
    expect(stdout.trim()).toMatch(/^true 0x[0-9a-f]{64}$/)
  }, 90_000)

  it('Biconomy SDK v4: a new Smart Account v2 sends one sponsored transaction and prints its receipt', async () => {
    const code = biconomySnippet(input)
    expect(readImportedPackages(code)).toEqual(['@biconomy/account', 'viem'])
    const project = await createSnippetProject(readImportedPackages(code))
    const { stdout } = await project.run('snippet.mjs', code)
    expect(stdout.trim()).toMatch(/^true 0x[0-9a-f]{64}$/)
  }, 90_000)

  it('curl: ERC-7677 stub data for a v0.7 operation comes back sponsored', async () => {
    const project = await createSnippetProject([])
    const { stdout } = await project.run('snippet.sh', curlSnippet(input))
    const body = JSON.parse(stdout)
    expect(body.error).toBeUndefined()
    expect(body.result).toMatchObject({
      paymaster: service.chain!.addresses.verifyingPaymasterV07,
      sponsor: { name: 'Opstation' },
    })
    expect(body.result.paymasterData).toMatch(/^0x[0-9a-f]+$/i)
  }, 30_000)
})
