import {
  toKernelSmartAccount,
  toLightSmartAccount,
  toNexusSmartAccount,
  toSafeSmartAccount,
} from 'permissionless/accounts'
import { type Address, encodeFunctionData, type LocalAccount, type PublicClient } from 'viem'
import { entryPoint07Address, type SmartAccount } from 'viem/account-abstraction'
import { toAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import type { SandboxAccount, SandboxAccountType, SandboxCall } from '../../../src/shared/sandbox'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { callPaymaster, createDapp, registerToken, tokenBalance } from '../paymaster/paymasterTestKit'

const v07 = { address: entryPoint07Address, version: '0.7' } as const

type ZooKind = {
  type: SandboxAccountType
  label: string
  factory: string
  /** The same account as permissionless builds it for the owner. */
  permissionless: (client: PublicClient, owner: LocalAccount) => Promise<SmartAccount>
}

const kinds: ZooKind[] = [
  {
    type: 'SAFE_V07',
    label: 'Safe 1.4.1 (v0.7)',
    factory: 'safeProxyFactory',
    permissionless: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v07 }),
  },
  {
    type: 'KERNEL_V3_1',
    label: 'Kernel v3.1 (v0.7)',
    factory: 'kernelMetaFactory',
    permissionless: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.1', entryPoint: v07 }),
  },
  {
    type: 'LIGHT_ACCOUNT_V2',
    label: 'LightAccount v2.0.0 (v0.7)',
    factory: 'lightAccountFactoryV2',
    permissionless: (client, owner) =>
      toLightSmartAccount({ client, owner, version: '2.0.0', entryPoint: v07 }),
  },
  {
    type: 'NEXUS',
    label: 'Nexus 1.0.0 (v0.7)',
    factory: 'nexusK1ValidatorFactory',
    permissionless: (client, owner) =>
      toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', entryPoint: v07 }),
  },
]

/** The sandbox account's owner as a local account permissionless can derive addresses from (it cannot sign). */
const ownerOnly = (address: Address): LocalAccount =>
  toAccount({
    address,
    signMessage: () => Promise.reject(new Error('the owner key stays in the service')),
    signTransaction: () => Promise.reject(new Error('the owner key stays in the service')),
    signTypedData: () => Promise.reject(new Error('the owner key stays in the service')),
  })

/**
 * The sandbox's account-zoo accounts on EntryPoint v0.7 (Safe, Kernel v3.1, LightAccount v2, Nexus), driven as
 * the console drives them: build, sponsor with the dApp's paymaster, sign with the service-held key, send to the
 * bundler (in safe mode), read the receipt. Each must be the account permissionless builds for the same owner.
 */
describe('sandbox account-zoo accounts on EntryPoint v0.7', () => {
  let service: TestService
  let headers: Record<string, string>
  let apiKey: string
  let token: Address
  const url = (path: string) => `${service.baseUrl}${path}`

  beforeAll(async () => {
    service = await startTestService()
    headers = { authToken: service.authToken() }
    apiKey = (await createDapp(service)).apiKey
    // A registered contract: the paymaster's policy must decode each account's callData to find the mint.
    token = await registerToken(service, apiKey, ['mint'])
  }, 60_000)
  afterAll(async () => {
    await service?.dispose()
  })

  async function post(path: string, body: unknown) {
    const res = await requestJson(url(path), { method: 'POST', headers, body })
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`)
    return res.body.data
  }

  const mint = (to: Address, amount: bigint): SandboxCall => ({
    to: token,
    data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] }),
  })

  /** build → pm_sponsorUserOperation (ctx.entryPoint) → sign → eth_sendUserOperation → receipt. */
  async function runSponsored(account: SandboxAccount, calls: SandboxCall[]) {
    const built = await post(`/console/api/sandbox/accounts/${account.address}/user-operation`, { calls })
    const sponsored = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
      built.userOperation,
      { mode: 'SPONSORED', entryPoint: built.entryPoint },
    ])
    expect(sponsored.body.error).toBeUndefined()
    const { mode: _m, MODE: _M, ...fields } = sponsored.body.result
    const signed = await post(`/console/api/sandbox/accounts/${account.address}/sign`, {
      userOperation: { ...built.userOperation, ...fields },
    })
    const sent = (
      await callBundler(service, 'eth_sendUserOperation', [signed.userOperation, built.entryPoint])
    ).body
    expect(sent.error).toBeUndefined()
    expect(sent.result).toBe(signed.userOpHash)
    let receipt: { success: boolean; sender: string; paymaster: string; reason?: string } | null = null
    for (let i = 0; i < 200 && !receipt; i++) {
      receipt = (await callBundler(service, 'eth_getUserOperationReceipt', [sent.result])).body.result
      if (!receipt) await new Promise((r) => setTimeout(r, 50))
    }
    return { built, signed, receipt: receipt! }
  }

  describe.each(kinds)('$label', ({ type, label, factory, permissionless }) => {
    let account: SandboxAccount
    let sdkAccount: SmartAccount

    it('is created at the address permissionless computes for the same owner', async () => {
      account = await post('/console/api/sandbox/accounts', { type })
      expect(account).toMatchObject({
        type,
        label: expect.any(String),
        entryPointVersion: '0.7',
        deployed: false,
      })
      expect(account.address).not.toBe(account.owner)
      sdkAccount = await permissionless(publicClientOf(service), ownerOnly(account.owner as Address))
      expect(account.address).toBe(await sdkAccount.getAddress())
      const listed = await requestJson(url('/console/api/sandbox/accounts'), { headers })
      expect(listed.body.data.find((a: SandboxAccount) => a.address === account.address)).toBeDefined()
      expect(label).toBeTruthy()
    })

    /**
     * What permissionless would send for these calls, read before the operation runs: its factory fields (while
     * undeployed), callData and nonce (key 0: the SDK's default key is a timestamp; Kernel and Nexus still put
     * their validator in it).
     */
    async function sdkOperation(calls: SandboxCall[]) {
      const { factory, factoryData } = await sdkAccount.getFactoryArgs()
      return {
        factory,
        factoryData,
        callData: await sdkAccount.encodeCalls(
          calls.map((c) => ({ to: c.to as Address, data: c.data as `0x${string}` })),
        ),
        nonce: `0x${(await sdkAccount.getNonce({ key: 0n })).toString(16)}`,
      }
    }

    it('deploys with a sponsored first operation that calls a contract, built as permissionless builds it', async () => {
      const alice = randomAddress()
      const calls = [mint(alice, 7n)]
      const expected = await sdkOperation(calls)
      const first = await runSponsored(account, calls)
      expect(first.built).toMatchObject({
        entryPoint: entryPoint07Address,
        entryPointVersion: '0.7',
        deployed: false,
      })
      expect(first.built.userOperation.factory).toBe(getZooAddress(factory))
      expect(first.built.userOperation).toMatchObject(expected)
      expect(first.receipt).toMatchObject({
        success: true,
        sender: account.address,
        paymaster: service.chain!.addresses.verifyingPaymasterV07,
      })
      expect(await tokenBalance(service, token, alice)).toBe(7n)
      const client = service.chain!.publicClient
      expect(await client.getCode({ address: account.address as Address })).toMatch(/^0x[0-9a-f]+$/)
      expect(await client.getBalance({ address: account.address as Address })).toBe(0n)
    })

    it('runs a second, sponsored operation with a batch of two calls', async () => {
      const bob = randomAddress()
      const carol = randomAddress()
      const calls = [mint(bob, 3n), mint(carol, 4n)]
      const expected = await sdkOperation(calls)
      expect(expected.factory).toBeUndefined()
      const second = await runSponsored(account, calls)
      expect(second.built.deployed).toBe(true)
      expect(second.built.userOperation.factory).toBeUndefined()
      expect(second.built.userOperation).toMatchObject({ callData: expected.callData, nonce: expected.nonce })
      expect(BigInt(second.built.userOperation.nonce) & 0xffffffffffffffffn).toBe(1n)
      expect(second.receipt).toMatchObject({ success: true, sender: account.address })
      expect(await tokenBalance(service, token, bob)).toBe(3n)
      expect(await tokenBalance(service, token, carol)).toBe(4n)
      const listed = await requestJson(url('/console/api/sandbox/accounts'), { headers })
      expect(listed.body.data.find((a: SandboxAccount) => a.address === account.address).deployed).toBe(true)
    })
  })
})
