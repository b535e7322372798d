import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

const ABI = JSON.stringify([
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [{ name: 'to', type: 'address' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'v', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'a', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
  { type: 'event', name: 'Transfer', inputs: [], anonymous: false },
])

let service: TestService
let authToken: string
const sdk = (path: string) => `${service.baseUrl}/api/v2/public/sdk/${path}`

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  authToken = service.authToken()
})
afterAll(async () => service.dispose())

async function createDapp(name: string) {
  const res = await requestJson(sdk('paymaster'), {
    method: 'POST',
    headers: { authToken },
    body: { name, type: 'HYBRID', chainId: 31337, version: '1.1.0' },
  })
  expect(res.status).toBe(200)
  return res.body.data.apiKey as string
}

describe('paymasters (dApps)', () => {
  it('creates a paymaster and lists it with name, chainId and apiKey', async () => {
    const res = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken },
      body: { name: 'My dApp', type: 'HYBRID', chainId: 31337, version: '1.1.0' },
    })
    expect(res.status).toBe(200)
    expect(res.body.statusCode).toBe(200)
    expect(res.body.data).toEqual({
      name: 'My dApp',
      chainId: 31337,
      apiKey: expect.stringMatching(/^[A-Za-z0-9]{9}\.[0-9a-f-]{36}$/),
    })
    const list = await requestJson(sdk('paymaster'), { headers: { authToken } })
    expect(list.status).toBe(200)
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ name: 'My dApp', chainId: 31337, apiKey: res.body.data.apiKey }),
    )
  })

  it.each([
    [{ type: 'HYBRID', chainId: 31337, version: '1' }, 'name is required'],
    [{ name: 5, type: 'HYBRID', chainId: 31337, version: '1' }, 'name must be a string'],
    [{ name: 'x', type: 'OTHER', chainId: 31337, version: '1' }, 'type must be HYBRID'],
    [{ name: 'x', type: 'HYBRID', chainId: '31337', version: '1' }, 'chainId must be a number'],
    [{ name: 'x', type: 'HYBRID', chainId: 31337 }, 'version is required'],
  ])('rejects a malformed create (%j) with 400 "%s"', async (body, message) => {
    const res = await requestJson(sdk('paymaster'), { method: 'POST', headers: { authToken }, body })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message })
  })
})

describe('smart contracts', () => {
  it('creates, lists (with callable methods), updates and deletes a contract', async () => {
    const apiKey = await createDapp('contracts-dapp')
    const headers = { authToken, apiKey }
    const address = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd'
    const created = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers,
      body: { name: 'Token', address, abi: ABI, whitelistedMethods: ['mint'] },
    })
    expect(created.status).toBe(200)
    expect(created.body.statusCode).toBe(200)

    const list = await requestJson(sdk('smart-contract'), { headers })
    expect(list.body.data).toEqual([
      {
        name: 'Token',
        address: '0xABcdEFABcdEFabcdEfAbCdefabcdeFABcDEFabCD',
        abi: ABI,
        whitelistedMethods: ['mint'],
        methods: ['mint', 'transfer'],
      },
    ])

    const updated = await requestJson(sdk('smart-contract'), {
      method: 'PATCH',
      headers,
      body: { address: address.toUpperCase().replace('0X', '0x'), whitelistedMethods: ['mint', 'transfer'] },
    })
    expect(updated.status).toBe(200)
    expect(updated.body.data).toMatchObject({
      name: 'Token',
      whitelistedMethods: ['mint', 'transfer'],
      methods: ['mint', 'transfer'],
    })

    const deleted = await requestJson(sdk('smart-contract'), { method: 'DELETE', headers, body: { address } })
    expect(deleted.status).toBe(200)
    expect((await requestJson(sdk('smart-contract'), { headers })).body.data).toEqual([])
  })

  it('rejects an ABI that does not parse and whitelisted methods missing from the ABI with 400', async () => {
    const apiKey = await createDapp('abi-dapp')
    const headers = { authToken, apiKey }
    const bad = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers,
      body: { name: 'A', address: '0x1000000000000000000000000000000000000001', abi: '{not json' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/^abi must be a stringified JSON ABI array/)
    const unknown = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers,
      body: {
        name: 'B',
        address: '0x1000000000000000000000000000000000000002',
        abi: ABI,
        whitelistedMethods: ['balanceOf', 'burn'],
      },
    })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe(
      'whitelistedMethods contains methods that are not callable functions of the ABI: balanceOf, burn (callable: mint, transfer)',
    )
    const badAddress = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers,
      body: { name: 'C', address: '0x123', abi: ABI },
    })
    expect(badAddress.status).toBe(400)
    expect(badAddress.body.message).toBe('address must be a valid address (0x followed by 40 hex digits)')
    expect((await requestJson(sdk('smart-contract'), { headers })).body.data).toEqual([])
  })

  it("treats another account's or an unknown apiKey as not found", async () => {
    const res = await requestJson(sdk('smart-contract'), { headers: { authToken, apiKey: 'abc.def' } })
    expect(res.status).toBe(404)
    expect(res.body.statusCode).toBe(404)
  })
})

describe('webhooks', () => {
  it('creates (active), gets, deactivates and deletes a webhook', async () => {
    const apiKey = await createDapp('webhook-dapp')
    const headers = { authToken, apiKey }
    const created = await requestJson(sdk('webhook'), {
      method: 'POST',
      headers,
      body: { webhookUrl: 'http://127.0.0.1:9999/hook', requestType: 'POST' },
    })
    expect(created.status).toBe(200)
    const { webhookId } = created.body.data
    expect(created.body.data).toEqual({
      webhookId: expect.any(String),
      webhookUrl: 'http://127.0.0.1:9999/hook',
      requestType: 'POST',
      active: true,
    })

    const got = await requestJson(`${sdk('webhook')}?webhookId=${webhookId}`, { headers })
    expect(got.status).toBe(200)
    expect(got.body.data).toEqual([
      { webhookId, webhookUrl: 'http://127.0.0.1:9999/hook', requestType: 'POST', active: true },
    ])

    const patched = await requestJson(sdk('webhook'), {
      method: 'PATCH',
      headers,
      body: { webhookId, active: false },
    })
    expect(patched.body).toEqual({ statusCode: 200, message: 'Webhook updated' })
    expect(
      (await requestJson(`${sdk('webhook')}?webhookId=${webhookId}`, { headers })).body.data[0].active,
    ).toBe(false)

    const deleted = await requestJson(sdk('webhook'), { method: 'DELETE', headers, body: { webhookId } })
    expect(deleted.body).toEqual({ statusCode: 200, message: 'Webhook deleted' })
    const after = await requestJson(`${sdk('webhook')}?webhookId=${webhookId}`, { headers })
    expect(after.status).toBe(404)
  })

  it('rejects a webhook URL that is not http(s) and an unknown requestType', async () => {
    const apiKey = await createDapp('webhook-bad')
    const headers = { authToken, apiKey }
    const url = await requestJson(sdk('webhook'), {
      method: 'POST',
      headers,
      body: { webhookUrl: 'ftp://x', requestType: 'POST' },
    })
    expect(url.body).toEqual({ statusCode: 400, message: 'webhookUrl must be an http(s) URL' })
    const type = await requestJson(sdk('webhook'), {
      method: 'POST',
      headers,
      body: { webhookUrl: 'http://x.test', requestType: 'PUT' },
    })
    expect(type.body).toEqual({ statusCode: 400, message: 'requestType must be GET or POST' })
  })
})
