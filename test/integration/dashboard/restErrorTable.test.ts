import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

// Every row of spec section 7, driven over real HTTP against the real server.
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
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'a', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
])
const ADDRESS = '0x1111111111111111111111111111111111111111'

let service: TestService
let base: string
let authToken: string
let apiKey: string

function sdk(path: string) {
  return `${base}/api/v2/public/sdk/${path}`
}

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  base = service.baseUrl
  authToken = service.authToken()
  const created = await requestJson(sdk('paymaster'), {
    method: 'POST',
    headers: { authToken },
    body: { name: 'errors-dapp', type: 'HYBRID', chainId: 31337, version: '1.0.0' },
  })
  apiKey = created.body.data.apiKey
})
afterAll(async () => service.dispose())

describe('spec section 7: REST error table', () => {
  const both = () => ({ authToken, apiKey })

  it.each([
    ['POST', 'webhook', 'Auth token and API key is required in the headers'],
    ['GET', 'webhook', 'Auth token is required in the headers'],
    ['PATCH', 'webhook', 'Auth token and API key is required in the headers'],
    ['DELETE', 'webhook', 'Auth token and API key is required in the headers'],
    ['GET', 'paymaster', 'Auth token and API key is required in the headers'],
    ['POST', 'paymaster', 'Auth token is required in the headers'],
    ['POST', 'smart-contract', 'Auth token and API key is required in the headers'],
    ['GET', 'smart-contract', 'Auth token and API key is required in the headers'],
    ['PATCH', 'smart-contract', 'Auth token and API key is required in the headers'],
    ['DELETE', 'smart-contract', 'Auth token and API key is required in the headers'],
  ])('%s %s without credentials answers 401 "%s"', async (method, path, message) => {
    const res = await requestJson(sdk(path), { method, body: method === 'GET' ? undefined : {} })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ statusCode: 401, message })
  })

  it('dApp-scoped routes with only the authToken (no apiKey) answer 401', async () => {
    for (const [method, path] of [
      ['POST', 'webhook'],
      ['PATCH', 'webhook'],
      ['DELETE', 'webhook'],
      ['POST', 'smart-contract'],
      ['GET', 'smart-contract'],
    ] as const) {
      const res = await requestJson(sdk(path), {
        method,
        headers: { authToken },
        body: method === 'GET' ? undefined : {},
      })
      expect(res.status, `${method} ${path}`).toBe(401)
      expect(res.body.message).toBe('Auth token and API key is required in the headers')
    }
  })

  it('a wrong authToken is refused with 401', async () => {
    const res = await requestJson(sdk('paymaster'), { headers: { authToken: 'nope' } })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ statusCode: 401, message: 'Invalid auth token' })
  })

  it('update webhook status with a non-boolean active answers 400 "active must be a boolean value"', async () => {
    const created = await requestJson(sdk('webhook'), {
      method: 'PATCH',
      headers: both(),
      body: { webhookId: 'whatever', active: 'yes' },
    })
    expect(created.status).toBe(400)
    expect(created.body).toEqual({ statusCode: 400, message: 'active must be a boolean value' })
  })

  it('update webhook status of an unknown webhook answers 404 "Webhook not found"', async () => {
    const res = await requestJson(sdk('webhook'), {
      method: 'PATCH',
      headers: both(),
      body: { webhookId: 'missing', active: false },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Webhook not found' })
  })

  it('delete webhook with a non-string webhookId answers 400 "webhookId must be a string"', async () => {
    const res = await requestJson(sdk('webhook'), {
      method: 'DELETE',
      headers: both(),
      body: { webhookId: 42 },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message: 'webhookId must be a string' })
  })

  it('delete of an unknown webhook answers 404 "Webhook not found"', async () => {
    const res = await requestJson(sdk('webhook'), {
      method: 'DELETE',
      headers: both(),
      body: { webhookId: 'missing' },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Webhook not found' })
  })

  it('creating a paymaster with a used name answers 400 "paymaster_name_exists"', async () => {
    const res = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken },
      body: { name: 'errors-dapp', type: 'HYBRID', chainId: 31337, version: '1.0.0' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message: 'paymaster_name_exists' })
  })

  it('creating a paymaster on an unsupported chain answers 400 "Chain ID not supported", naming the chain served', async () => {
    const res = await requestJson(sdk('paymaster'), {
      method: 'POST',
      headers: { authToken },
      body: { name: 'other', type: 'HYBRID', chainId: 1, version: '1.0.0' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({
      statusCode: 400,
      message: 'Chain ID not supported',
      data: { chainId: 1, chainIds: [31337], runs: 'this Opstation runs chain 31337' },
    })
  })

  it('registering an address twice answers 400 "Smart contract address already exists", whatever its case', async () => {
    const first = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers: both(),
      body: { name: 'Token', address: ADDRESS, abi: ABI, whitelistedMethods: ['mint'] },
    })
    expect(first.status).toBe(200)
    const again = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers: both(),
      body: { name: 'Token 2', address: ADDRESS.toUpperCase().replace('0X', '0x'), abi: ABI },
    })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ statusCode: 400, message: 'Smart contract address already exists' })
  })

  it('update whitelisted methods with a non-array answers 400 "whitelistedMethods must be an array"', async () => {
    const res = await requestJson(sdk('smart-contract'), {
      method: 'PATCH',
      headers: both(),
      body: { address: ADDRESS, whitelistedMethods: 'mint' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ statusCode: 400, message: 'whitelistedMethods must be an array' })
  })

  it('update whitelisted methods of an address not added answers HTTP 404 with statusCode 404', async () => {
    const res = await requestJson(sdk('smart-contract'), {
      method: 'PATCH',
      headers: both(),
      body: { address: '0x2222222222222222222222222222222222222222', whitelistedMethods: [] },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Smart contract not found' })
  })

  it('update whitelisted methods with a wrong apiKey answers 404 "Smart contract not found"', async () => {
    const res = await requestJson(sdk('smart-contract'), {
      method: 'PATCH',
      headers: { authToken, apiKey: 'unknown.key' },
      body: { address: ADDRESS, whitelistedMethods: [] },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Smart contract not found' })
  })

  it('delete of an address not registered answers HTTP 404 "Smart contract not found"', async () => {
    const res = await requestJson(sdk('smart-contract'), {
      method: 'DELETE',
      headers: both(),
      body: { address: '0x3333333333333333333333333333333333333333' },
    })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ statusCode: 404, message: 'Smart contract not found' })
  })
})
