import { entryPoint07Address, entryPoint08Address, entryPoint09Address } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SandboxAccount } from '../../../src/shared/sandbox'
import { getSharedTestService } from '../../helpers/sharedTestService'
import { requestJson, type TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress } from '../bundler/bundlerTestKit'
import { callPaymaster, createDapp } from '../paymaster/paymasterTestKit'

/**
 * The sandbox's v0.7 SimpleAccount and v0.8 EIP-7702 account, driven as the console drives them: build, sponsor
 * with the dApp's paymaster, sign with the service-held key, send to the bundler, read the receipt.
 */
describe('sandbox accounts on EntryPoint v0.7 and v0.8', () => {
  let service: TestService
  let headers: Record<string, string>
  const url = (path: string) => `${service.baseUrl}${path}`

  beforeAll(async () => {
    service = await getSharedTestService()
    headers = { authToken: service.authToken() }
  })

  async function post(path: string, body: unknown) {
    const res = await requestJson(url(path), { method: 'POST', headers, body })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }

  /** build → pm_sponsorUserOperation (ctx.entryPoint) → sign → eth_sendUserOperation → receipt. */
  async function runSponsored(account: SandboxAccount, apiKey: string, to: string, value: bigint) {
    const built = await post(`/console/api/sandbox/accounts/${account.address}/user-operation`, {
      calls: [{ to, value: value.toString() }],
    })
    const sponsored = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
      built.userOperation,
      { mode: 'SPONSORED', entryPoint: built.entryPoint },
    ])
    const { mode: _m, MODE: _M, ...fields } = sponsored.body.result
    const signed = await post(`/console/api/sandbox/accounts/${account.address}/sign`, {
      userOperation: { ...built.userOperation, ...fields },
    })
    const sent = (
      await callBundler(service, 'eth_sendUserOperation', [signed.userOperation, built.entryPoint])
    ).body
    expect(sent.error).toBeUndefined()
    expect(sent.result).toBe(signed.userOpHash)
    let receipt: { success: boolean; paymaster: string } | null = null
    for (let i = 0; i < 100 && !receipt; i++) {
      receipt = (await callBundler(service, 'eth_getUserOperationReceipt', [sent.result])).body.result
      if (!receipt) await new Promise((r) => setTimeout(r, 50))
    }
    return { built, signed, receipt: receipt! }
  }

  it('creates a v0.7 SimpleAccount at its factory address, deploys it with a sponsored call, then calls again', async () => {
    const { apiKey } = await createDapp(service)
    const account: SandboxAccount = await post('/console/api/sandbox/accounts', {
      type: 'SIMPLE_ACCOUNT_V07',
    })
    expect(account).toMatchObject({ entryPointVersion: '0.7', deployed: false })
    await post('/console/api/sandbox/faucet', { address: account.address, asset: 'ETH', amount: '1' })
    const to = randomAddress()
    const first = await runSponsored(account, apiKey, to, 5n)
    expect(first.built).toMatchObject({
      entryPoint: entryPoint07Address,
      entryPointVersion: '0.7',
      deployed: false,
    })
    expect(first.built.userOperation.factory).toBe(service.chain!.addresses.simpleAccountFactoryV07)
    expect(first.receipt).toMatchObject({
      success: true,
      paymaster: service.chain!.addresses.verifyingPaymasterV07,
    })
    const second = await runSponsored(account, apiKey, to, 6n)
    expect(second.built.deployed).toBe(true)
    expect(second.built.userOperation.factory).toBeUndefined()
    expect(second.receipt.success).toBe(true)
    expect(await service.chain!.publicClient.getBalance({ address: to as `0x${string}` })).toBe(11n)
  })

  it.each([
    ['0.8', 'SIMPLE_7702_V08', entryPoint08Address, 'simple7702AccountV08', 'verifyingPaymasterV08'],
    ['0.9', 'SIMPLE_7702_V09', entryPoint09Address, 'simple7702AccountV09', 'verifyingPaymasterV09'],
  ] as const)(
    'creates an EIP-7702 account on v%s (the owner EOA), delegates it with an authorization the service signs, then runs without one',
    async (version, type, entryPoint, delegate, paymaster) => {
      const { apiKey } = await createDapp(service)
      const account: SandboxAccount = await post('/console/api/sandbox/accounts', { type })
      expect(account).toMatchObject({ entryPointVersion: version, deployed: false })
      expect(account.address).toBe(account.owner)
      await post('/console/api/sandbox/faucet', { address: account.address, asset: 'ETH', amount: '1' })
      const to = randomAddress()
      const first = await runSponsored(account, apiKey, to, 7n)
      expect(first.built).toMatchObject({ entryPoint, entryPointVersion: version })
      expect(first.built.userOperation).toMatchObject({
        factory: '0x7702',
        eip7702Auth: { address: service.chain!.addresses[delegate] },
      })
      expect(first.receipt).toMatchObject({ success: true, paymaster: service.chain!.addresses[paymaster] })
      const listed = await requestJson(url('/console/api/sandbox/accounts'), { headers })
      expect(listed.body.data.find((a: SandboxAccount) => a.address === account.address).deployed).toBe(true)
      const second = await runSponsored(account, apiKey, to, 8n)
      expect(second.built.userOperation.eip7702Auth).toBeUndefined()
      expect(second.receipt.success).toBe(true)
      expect(await service.chain!.publicClient.getBalance({ address: to as `0x${string}` })).toBe(15n)
    },
  )
})
