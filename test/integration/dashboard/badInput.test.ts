import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CURRENT_SCHEMA_VERSION } from '../../../src/main/service/store/schema'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

let service: TestService
let authToken: string
let apiKey: string
const sdk = (path: string) => `${service.baseUrl}/api/v2/public/sdk/${path}`
const ROUTES = [
  ['GET', 'paymaster'],
  ['POST', 'paymaster'],
  ['POST', 'smart-contract'],
  ['GET', 'smart-contract'],
  ['PATCH', 'smart-contract'],
  ['DELETE', 'smart-contract'],
  ['POST', 'webhook'],
  ['GET', 'webhook'],
  ['PATCH', 'webhook'],
  ['DELETE', 'webhook'],
] as const

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  authToken = service.authToken()
  const res = await requestJson(sdk('paymaster'), {
    method: 'POST',
    headers: { authToken },
    body: { name: 'bad-input', type: 'HYBRID', chainId: 31337, version: '1' },
  })
  apiKey = res.body.data.apiKey
})
afterAll(async () => service.dispose())

function expectEnvelope(res: { status: number; body: any }, status: number) {
  expect(res.status).toBe(status)
  expect(res.body).toEqual({ statusCode: status, message: expect.any(String) })
  expect(res.body.message).not.toMatch(/at .*\.ts:\d+/)
}

describe('bad input on every REST route gets a clear error in the envelope, never a 500', () => {
  const writes = ROUTES.filter(([m]) => m !== 'GET')

  it.each(writes)('%s %s with malformed JSON answers 400', async (method, path) => {
    const res = await requestJson(sdk(path), {
      method,
      headers: { authToken, apiKey, 'content-type': 'application/json' },
      rawBody: '{"name": ',
    })
    expectEnvelope(res, 400)
    expect(res.body.message).toBe('Request body is not valid JSON')
  })

  it.each(writes)('%s %s with a JSON array body answers 400 naming the body', async (method, path) => {
    const res = await requestJson(sdk(path), { method, headers: { authToken, apiKey }, body: [1, 2] })
    expectEnvelope(res, 400)
  })

  it.each(writes)('%s %s with a 1 MB body answers 413', async (method, path) => {
    const res = await requestJson(sdk(path), {
      method,
      headers: { authToken, apiKey },
      body: { name: 'x'.repeat(1_100_000) },
    })
    expectEnvelope(res, 413)
    expect(res.body.message).toBe('Request body is too large')
  })

  it.each(writes)('%s %s with a non-JSON content type answers 415', async (method, path) => {
    const res = await requestJson(sdk(path), {
      method,
      headers: { authToken, apiKey, 'content-type': 'text/plain' },
      rawBody: 'hello',
    })
    expectEnvelope(res, 415)
  })

  it.each(ROUTES)('%s %s with a repeated, empty apiKey header answers 401', async (method, path) => {
    const res = await requestJson(sdk(path), {
      method,
      headers: { authToken: '', apiKey: '' },
      body: method === 'GET' ? undefined : {},
    })
    expectEnvelope(res, 401)
  })

  it('wrong field types name the field', async () => {
    const res = await requestJson(sdk('smart-contract'), {
      method: 'POST',
      headers: { authToken, apiKey },
      body: {
        name: 'T',
        address: '0x1111111111111111111111111111111111111111',
        abi: [],
        whitelistedMethods: [1],
      },
    })
    expectEnvelope(res, 400)
    expect(res.body.message).toBe('abi must be a string (the stringified ABI)')
  })

  it('an unknown route answers 404 in the envelope', async () => {
    const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/nothing`)
    expectEnvelope(res, 404)
  })

  it('the store is intact and valid JSON after all the bad requests', async () => {
    const doc = JSON.parse(await readFile(service.store.path, 'utf8'))
    expect(doc.schemaVersion).toBe(CURRENT_SCHEMA_VERSION)
    expect(doc.dapps.map((d: { name: string }) => d.name)).toEqual(['bad-input'])
    expect(doc.smartContracts).toEqual([])
  })
})

describe('origin and host protection', () => {
  it('refuses a request whose Host header is not a loopback name (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const url = new URL(sdk('paymaster'))
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { Host: 'evil.example:80', authToken },
        },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(403)
  })

  it('REST routes refuse cross-origin callers and send no CORS headers', async () => {
    const res = await requestJson(sdk('paymaster'), { headers: { authToken, Origin: 'http://evil.example' } })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('JSON-RPC routes answer a CORS preflight from any origin', async () => {
    const res = await fetch(service.info().bundlerUrl, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://dapp.localhost:3000',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type')
  })
})
