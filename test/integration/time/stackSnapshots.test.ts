import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../../helpers/startTestService'
import {
  clientsOf,
  createDapp,
  createSponsoredAccount,
  listDapps,
  mempoolOf,
  receiptOf,
  rpc,
  sendAndMine,
  setLimits,
  type Urls,
  urlsOf,
} from './timeTravelKit'

let service: TestService
let urls: Urls

beforeAll(async () => {
  service = await startTestService()
  urls = urlsOf(service)
}, 60_000)

afterAll(async () => {
  await service?.dispose()
})

describe('evm_revert at the chain URL takes the whole stack back', () => {
  it('undoes a dApp, spending up to a limit, receipts and the mempool; the next operation is mined at its first try', async () => {
    const { testClient } = clientsOf(urls)
    const first = await createDapp(urls, 'before')
    await setLimits(urls, first.apiKey, [
      {
        type: 'SMART_ACCOUNT',
        thresholdType: 'COUNT',
        threshold: '2',
        cycleDuration: { value: 1, unit: 'day' },
      },
    ])
    const account = await createSponsoredAccount(urls, first.paymasterUrl)
    expect((await sendAndMine(account)).success).toBe(true)

    const id = await testClient.snapshot()

    // After the snapshot: a second dApp, the account's limit used up, an operation left waiting in the mempool.
    const second = await createDapp(urls, 'after')
    const reverted = await sendAndMine(account)
    expect(reverted.success).toBe(true)
    await expect(account.send()).rejects.toThrow(/Spending limit reached/)
    await rpc(urls.bundlerUrl, 'debug_bundler_setBundlingMode', ['manual'])
    const waiting = await createSponsoredAccount(urls, first.paymasterUrl)
    const waitingHash = await waiting.send()
    expect(await mempoolOf(urls)).toHaveLength(1)

    await testClient.revert({ id })
    await rpc(urls.bundlerUrl, 'debug_bundler_setBundlingMode', ['auto'])

    expect((await listDapps(urls)).map((d) => d.apiKey)).not.toContain(second.apiKey)
    expect((await listDapps(urls)).map((d) => d.apiKey)).toContain(first.apiKey)
    expect(await receiptOf(urls, reverted.hash)).toBeNull()
    expect(await receiptOf(urls, waitingHash)).toBeNull()
    expect(await mempoolOf(urls)).toEqual([])
    // The limit is available again, and the executor's and the account's nonces are right: mined at once.
    const again = await sendAndMine(account)
    expect(again.success).toBe(true)
    expect(await receiptOf(urls, again.hash)).not.toBeNull()
  }, 120_000)

  it('follows anvil: a revert uses up its id and the later ones', async () => {
    const { testClient } = clientsOf(urls)
    const a = await testClient.snapshot()
    const b = await testClient.snapshot()
    expect(BigInt(b)).toBeGreaterThan(BigInt(a))
    expect((await rpc(urls.rpcUrl, 'evm_revert', [a])).result).toBe(true)
    expect((await rpc(urls.rpcUrl, 'evm_revert', [b])).result).toBe(false)
    expect((await rpc(urls.rpcUrl, 'evm_revert', [a])).result).toBe(false)
  })

  it('keeps the auth token and the settings across a revert', async () => {
    const { testClient } = clientsOf(urls)
    const id = await testClient.snapshot()
    const setting = await rpc(urls.bundlerUrl, 'debug_bundler_setBundlingMode', ['auto'])
    expect(setting.error).toBeUndefined()
    const before = service.store.data.settings
    await testClient.revert({ id })
    expect(service.authToken()).toBe(urls.authToken)
    expect(service.store.data.settings).toEqual(before)
    expect(service.store.data.accounts[0]?.authToken).toBe(urls.authToken)
  })

  it('anvil_reset takes the stack back to its first start: old receipts answer null, a sponsored operation works', async () => {
    const { testClient, publicClient } = clientsOf(urls)
    const dapp = await createDapp(urls, 'reset')
    const account = await createSponsoredAccount(urls, dapp.paymasterUrl)
    const before = await sendAndMine(account)
    await testClient.reset()
    // Answered once the contracts are back.
    expect(await publicClient.getCode({ address: service.chain!.addresses.entryPointV07 })).toMatch(
      /^0x[0-9a-f]{100,}$/,
    )
    expect(await receiptOf(urls, before.hash)).toBeNull()
    expect(await publicClient.getBlockNumber({ cacheTime: 0 })).toBeLessThan(1000n)
    const fresh = await createSponsoredAccount(urls, dapp.paymasterUrl)
    expect((await sendAndMine(fresh)).success).toBe(true)
  }, 120_000)
})
