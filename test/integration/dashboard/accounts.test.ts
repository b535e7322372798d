import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
const sdk = (path: string) => `${service.baseUrl}/api/v2/public/sdk/${path}`
const OTHER_TOKEN = 'b'.repeat(64)

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  // A second account in the same store (the GUI shows one; the store and the API hold several).
  await service.store.update((doc) => {
    doc.accounts.push({
      id: 'other',
      name: 'other',
      authToken: OTHER_TOKEN,
      bundlerKey: 'other.key',
      createdAt: new Date().toISOString(),
    })
  })
})
afterAll(async () => service.dispose())

describe('accounts', () => {
  it("one account's dApps are invisible to another, and its apiKey is treated as not found", async () => {
    const mine = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken: service.authToken() },
      body: { name: 'shared-name', type: 'HYBRID', chainId: 31337, version: '1' },
    })
    const theirs = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken: OTHER_TOKEN },
      body: { name: 'shared-name', type: 'HYBRID', chainId: 31337, version: '1' },
    })
    expect(theirs.status).toBe(200)
    const theirList = await requestJson(sdk('paymaster'), { headers: { authToken: OTHER_TOKEN } })
    expect(theirList.body.data.map((d: { apiKey: string }) => d.apiKey)).toEqual([theirs.body.data.apiKey])

    const crossed = await requestJson(sdk('smart-contract'), {
      headers: { authToken: OTHER_TOKEN, apiKey: mine.body.data.apiKey },
    })
    expect(crossed.status).toBe(404)
    const crossedWebhook = await requestJson(sdk('webhook'), {
      method: 'PATCH',
      headers: { authToken: OTHER_TOKEN, apiKey: mine.body.data.apiKey },
      body: { webhookId: 'x', active: true },
    })
    expect(crossedWebhook.body).toEqual({ statusCode: 404, message: 'Webhook not found' })
  })
})
