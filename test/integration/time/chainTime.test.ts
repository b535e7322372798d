import type { UserOperation } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import {
  clientsOf,
  createDapp,
  createSponsoredAccount,
  mempoolOf,
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

/** The chain's now: the timestamp its next block gets. */
async function chainNow(): Promise<number> {
  const { publicClient } = clientsOf(urls)
  return Number((await publicClient.getBlock({ blockTag: 'pending' })).timestamp)
}

async function setWindow(apiKey: string, window: { validAfter?: number | null; validUntil?: number | null }) {
  const res = await requestJson(`${urls.dashboardUrl}/console/api/dapps/${apiKey}/policies`, {
    method: 'PATCH',
    headers: { authToken: urls.authToken },
    body: window,
  })
  expect(res.status).toBe(200)
}

describe('time at the chain URL moves every clock of the service', () => {
  it('after a ten-day jump the paymaster signs a window in chain time: the operation is mined', async () => {
    const { testClient } = clientsOf(urls)
    const { paymasterUrl } = await createDapp(urls)
    await testClient.increaseTime({ seconds: 10 * 86_400 })
    await testClient.mine({ blocks: 1 })
    const account = await createSponsoredAccount(urls, paymasterUrl)
    expect((await sendAndMine(account)).success).toBe(true)
  }, 60_000)

  it('an operation whose paymaster signature chain time has passed is refused with the expiry explained (AA32)', async () => {
    const { testClient } = clientsOf(urls)
    const { paymasterUrl } = await createDapp(urls)
    const { account, bundlerClient } = await createSponsoredAccount(urls, paymasterUrl)
    const prepared = (await bundlerClient.prepareUserOperation({
      calls: [{ to: '0x000000000000000000000000000000000000dEaD', value: 0n }],
    })) as UserOperation<'0.7'>
    const signature = await account.signUserOperation(prepared)
    // The signature is good for five minutes (expiryDuration 300) of chain time.
    await testClient.increaseTime({ seconds: 600 })
    await expect(bundlerClient.sendUserOperation({ ...prepared, signature })).rejects.toThrow(
      /AA32 paymaster expired or not due/,
    )
  }, 60_000)

  it('an operation waiting in the mempool (manual bundling) past its window is dropped as expired', async () => {
    const { testClient } = clientsOf(urls)
    const { paymasterUrl } = await createDapp(urls)
    await rpc(urls.bundlerUrl, 'debug_bundler_setBundlingMode', ['manual'])
    try {
      const waiting = await createSponsoredAccount(urls, paymasterUrl)
      const hash = await waiting.send()
      expect(await mempoolOf(urls)).toHaveLength(1)
      await testClient.increaseTime({ seconds: 600 })
      await testClient.mine({ blocks: 1 })
      expect(await mempoolOf(urls)).toEqual([])
      const status = await rpc(urls.bundlerUrl, 'biconomy_getUserOperationStatus', [hash])
      expect(status.result).toMatchObject({
        state: 'DROPPED_FROM_BUNDLER_MEMPOOL',
        message: expect.stringMatching(/AA32 paymaster expired or not due: .*expired in the mempool/),
      })
    } finally {
      await rpc(urls.bundlerUrl, 'debug_bundler_setBundlingMode', ['auto'])
    }
  }, 60_000)

  it("a dApp's validity window opens and closes by chain time, at once after evm_increaseTime", async () => {
    const { testClient } = clientsOf(urls)
    const { apiKey, paymasterUrl } = await createDapp(urls)
    const now = await chainNow()
    await setWindow(apiKey, { validAfter: now + 3600, validUntil: now + 7200 })
    const account = await createSponsoredAccount(urls, paymasterUrl)
    await expect(account.send()).rejects.toThrow(/Sponsorship starts at/)
    await testClient.increaseTime({ seconds: 3700 })
    expect((await sendAndMine(account)).success).toBe(true)
    await testClient.increaseTime({ seconds: 3600 })
    await expect(account.send()).rejects.toThrow(/Sponsorship ended at/)
  }, 60_000)

  it("a daily spending limit's next period comes with evm_increaseTime", async () => {
    const { testClient } = clientsOf(urls)
    const { apiKey, paymasterUrl } = await createDapp(urls)
    await setLimits(urls, apiKey, [
      {
        type: 'SMART_ACCOUNT',
        thresholdType: 'COUNT',
        threshold: '1',
        cycleDuration: { value: 1, unit: 'day' },
      },
    ])
    const account = await createSponsoredAccount(urls, paymasterUrl)
    expect((await sendAndMine(account)).success).toBe(true)
    await expect(account.send()).rejects.toThrow(/Spending limit reached/)
    await testClient.increaseTime({ seconds: 86_400 })
    expect((await sendAndMine(account)).success).toBe(true)
  }, 60_000)
})
