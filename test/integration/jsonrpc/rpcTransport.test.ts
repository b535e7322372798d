import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestRaw } from '../../helpers/requestRaw'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
let apiKey: string

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
    method: 'POST',
    headers: { authToken: service.authToken() },
    body: { name: 'rpc', type: 'HYBRID', chainId: 31337, version: '1' },
  })
  apiKey = res.body.data.apiKey
})
afterAll(async () => service.dispose())

/** A JSON-RPC POST as Biconomy's SDK sends it (`Accept: application/json`: errors keep their HTTP status). */
const rpc = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  requestJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    rawBody: typeof body === 'string' ? body : JSON.stringify(body),
  })

describe('JSON-RPC over HTTP at the Biconomy URL shapes', () => {
  it('serves eth_chainId at the bundler URL and the paymaster URL, with CORS open', async () => {
    const bundler = await rpc(
      service.info().bundlerUrl,
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { Origin: 'http://localhost:3000' },
    )
    expect(bundler.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' })
    expect(bundler.headers.get('access-control-allow-origin')).toBe('*')
    const paymasterUrl = service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey)
    expect(
      (await rpc(paymasterUrl, { jsonrpc: '2.0', id: 'x', method: 'eth_chainId', params: [] })).body.result,
    ).toBe('0x7a69')
  })

  it('the bundler URL matches the Biconomy SDK regex and the dApp apiKey works as a bundler key too', async () => {
    expect(service.info().bundlerUrl).toMatch(/\/api\/v2\/(\d+)\/[a-zA-Z0-9.-]+$/)
    const res = await rpc(`${service.baseUrl}/api/v2/31337/${apiKey}`, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_chainId',
      params: [],
    })
    expect(res.status).toBe(200)
  })

  it('answers an error with HTTP 200 and the same error object to a client that does not ask for application/json (ethers v5, viem, browsers)', async () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'eth_chainId', params: [] }
    for (const accept of [undefined, '*/*', 'application/json, */*']) {
      const res = await rpc(
        `${service.baseUrl}/api/v2/31337/not-a-key`,
        call,
        accept ? { accept } : { accept: '' },
      )
      expect(res.status, String(accept)).toBe(200)
      expect(res.body.error.code, String(accept)).toBe(-32001)
    }
    const biconomy = await rpc(`${service.baseUrl}/api/v2/31337/not-a-key`, call)
    expect(biconomy.status).toBe(401)
    expect(biconomy.body.error).toEqual(
      (await rpc(`${service.baseUrl}/api/v2/31337/not-a-key`, call, { accept: '*/*' })).body.error,
    )
  })

  it('rejects an unknown bundler key with -32001 and HTTP 401', async () => {
    const res = await rpc(`${service.baseUrl}/api/v2/31337/not-a-key`, {
      jsonrpc: '2.0',
      id: 3,
      method: 'eth_chainId',
      params: [],
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32001,
        message: 'Unknown bundler key "not-a-key": use the bundler URL shown by Opstation (or a dApp apiKey)',
        data: { reason: 'UNKNOWN_BUNDLER_KEY' },
      },
    })
  })

  it('rejects an unknown paymaster apiKey clearly', async () => {
    const res = await rpc(`${service.baseUrl}/api/v1/31337/missing_key`, {
      jsonrpc: '2.0',
      id: 3,
      method: 'pm_sponsorUserOperation',
      params: [],
    })
    expect(res.status).toBe(401)
    expect(res.body.error).toEqual({
      code: -32001,
      message: 'Unknown paymaster apiKey "missing_key": create a paymaster (dApp) and use its paymaster URL',
    })
  })

  it('rejects a chain id in the URL that is not the served chain', async () => {
    const res = await rpc(service.info().bundlerUrl.replace('/31337/', '/1/'), {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_chainId',
      params: [],
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({
      code: -32003,
      message: 'Chain ID 1 in the URL is not served here; this service runs chain 31337',
      // The chains it runs, for a program to pick one.
      data: { chainIds: [31337] },
    })
  })

  it('answers malformed JSON with -32700 and a body over the limit with a JSON-RPC error, HTTP 413', async () => {
    const bad = await rpc(service.info().bundlerUrl, '{"jsonrpc":')
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe(-32700)
    const big = await rpc(service.info().bundlerUrl, {
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_chainId',
      params: ['x'.repeat(1_100_000)],
    })
    expect(big.status).toBe(413)
    expect(big.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Request body is too large' },
    })
  })

  it('answers alike whether the body comes with a length (answered before Fastify) or chunked (through Fastify)', async () => {
    const url = service.info().bundlerUrl
    const calls = [
      { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 8, method: 'eth_noSuchMethod', params: [] },
      [{ jsonrpc: '2.0', id: 9, method: 'eth_chainId', params: [] }],
    ]
    for (const call of calls) {
      const sized = await rawPost(url, JSON.stringify(call), { chunked: false })
      const chunked = await rawPost(url, JSON.stringify(call), { chunked: true })
      expect(sized.status).toBe(chunked.status)
      expect(JSON.parse(sized.body)).toEqual(JSON.parse(chunked.body))
      for (const res of [sized, chunked]) {
        expect(res.headers['access-control-allow-origin']).toBe('*')
        expect(res.headers['content-type']).toMatch(/^application\/json/)
      }
    }
    // A notification has no answer: 204 on both paths.
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect((await rawPost(url, notification, { chunked: false })).status).toBe(204)
    expect((await rawPost(url, notification, { chunked: true })).status).toBe(204)
  })

  it('answers with a trailing slash or a query string on the URL, and refuses a foreign Host with a JSON-RPC 403', async () => {
    const url = service.info().bundlerUrl
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    for (const variant of [`${url}/`, `${url}?x=1`]) {
      const res = await rawPost(variant, call, { chunked: false })
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body).result).toBe('0x7a69')
    }
    const refused = await rawPost(url, call, { chunked: false, host: 'evil.example' })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
  })
})

const rawPost = (url: string, body: string, options: { chunked: boolean; host?: string }) =>
  requestRaw(url, {
    body,
    chunked: options.chunked,
    headers: { 'content-type': 'application/json', ...(options.host ? { host: options.host } : {}) },
  })
