import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  buildSponsorRequestOpV07,
  callConsole,
  callPaymaster,
  createDapp,
  sponsoredContext,
} from './paymasterTestKit'

/** A real local HTTP server playing the dApp's webhook; every request is recorded. */
type Received = { method: string; url: string; body: any }
let server: Server
let webhookBase = ''
const received: Received[] = []
const routes: Record<string, (req: IncomingMessage, send: (status: number, body: string) => void) => void> = {
  '/approve': (_req, send) => send(200, JSON.stringify({ arePoliciesVerified: true })),
  '/approve-old-spelling': (_req, send) => send(200, JSON.stringify({ arePoliciesVerifed: true })),
  '/deny': (_req, send) => send(200, JSON.stringify({ arePoliciesVerified: false })),
  '/slow': (_req, send) => setTimeout(() => send(200, JSON.stringify({ arePoliciesVerified: true })), 2_000),
  '/error': (_req, send) => send(500, JSON.stringify({ arePoliciesVerified: true })),
  '/invalid-json': (_req, send) => send(200, '{arePoliciesVerified: true'),
  '/missing-field': (_req, send) => send(200, JSON.stringify({ ok: true })),
}

let service: TestService
const TIMEOUT_MS = 400

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      received.push({ method: req.method ?? '', url: req.url ?? '', body: text ? JSON.parse(text) : null })
      const handler = routes[path]
      const send = (status: number, body: string) => {
        if (res.writableEnded || res.destroyed) return
        res.writeHead(status, { 'content-type': 'application/json' }).end(body)
      }
      if (handler) handler(req, send)
      else send(404, '{}')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  webhookBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  service = await startTestService({ webhookTimeoutMs: TIMEOUT_MS })
})
afterAll(async () => {
  server?.closeAllConnections()
  server?.close()
  await service?.dispose()
})

async function dappWithWebhook(path: string, requestType: 'GET' | 'POST' = 'POST') {
  const dapp = await createDapp(service)
  const created = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, {
    method: 'POST',
    headers: { authToken: service.authToken(), apiKey: dapp.apiKey },
    body: { webhookUrl: `${webhookBase}${path}`, requestType },
  })
  expect(created.status).toBe(200)
  return dapp
}

async function sponsor(apiKey: string, webhookData?: Record<string, unknown>) {
  const op = await buildSponsorRequestOp(service)
  const context = sponsoredContext(webhookData ? { sponsorshipInfo: { webhookData } } : {})
  const response = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [op, context])
  expect(response.status).toBe(200)
  return { op, result: response.body.result }
}

async function lastDecision(apiKey: string) {
  const { body } = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}&limit=1`)
  return body.data.items[0]
}

async function lastCall(apiKey: string) {
  const { body } = await callConsole(service, `/console/api/dapps/${apiKey}/webhook-calls?limit=1`)
  return body.data.items[0]
}

describe('webhook policy (spec section 6) against real local HTTP servers', () => {
  it('sponsors when a POST webhook approves; the body is {data: {...webhookData, userOp}, userOp} and the call is logged', async () => {
    const { apiKey } = await dappWithWebhook('/approve')
    const { op, result } = await sponsor(apiKey, { userId: 'u-1', plan: { tier: 'gold' } })
    expect(result.paymasterAndData).not.toBe('0x')
    const request = received.filter((r) => r.url === '/approve').at(-1)!
    expect(request.method).toBe('POST')
    expect(request.body.data).toMatchObject({
      userId: 'u-1',
      plan: { tier: 'gold' },
      userOp: { sender: op.sender, nonce: '0x0' },
    })
    expect(request.body.userOp).toEqual(request.body.data.userOp)
    const call = await lastCall(apiKey)
    expect(call).toMatchObject({
      method: 'POST',
      status: 200,
      verified: true,
      field: 'arePoliciesVerified',
      error: null,
      responseBody: '{"arePoliciesVerified":true}',
    })
    expect(call.latencyMs).toBeGreaterThanOrEqual(0)
    expect(JSON.parse(call.requestBody)).toEqual(request.body)
    const decision = await lastDecision(apiKey)
    expect(decision.steps.at(-1)).toMatchObject({ step: 'webhook', outcome: 'pass' })
    expect(decision.webhookCallId).toBe(call.id)
  }, 30_000)

  it('accepts the old spelling arePoliciesVerifed', async () => {
    const { apiKey } = await dappWithWebhook('/approve-old-spelling')
    const { result } = await sponsor(apiKey, { any: 1 })
    expect(result.paymasterAndData).not.toBe('0x')
    expect(await lastCall(apiKey)).toMatchObject({ verified: true, field: 'arePoliciesVerifed' })
  }, 30_000)

  it('does not sponsor when the webhook denies, and records why', async () => {
    const { apiKey } = await dappWithWebhook('/deny')
    const { result } = await sponsor(apiKey, { any: 1 })
    expect(result.paymasterAndData).toBe('0x')
    expect(result.callGasLimit).toBeGreaterThan(0)
    const decision = await lastDecision(apiKey)
    expect(decision.sponsored).toBe(false)
    expect(decision.reason).toMatch(
      /^Webhook did not verify: Webhook answered arePoliciesVerified: false \(POST http:\/\/127\.0\.0\.1:\d+\/deny → 200 in [\d.]+ ms\)$/,
    )
  }, 30_000)

  it.each([
    ['/error', 'Webhook answered HTTP 500', 500],
    ['/invalid-json', 'Webhook response is not valid JSON', 200],
    ['/missing-field', 'Webhook response has neither arePoliciesVerified nor arePoliciesVerifed', 200],
  ])(
    'treats %s as not verified (%s)',
    async (path, error, status) => {
      const { apiKey } = await dappWithWebhook(path)
      const { result } = await sponsor(apiKey, { any: 1 })
      expect(result.paymasterAndData).toBe('0x')
      expect(await lastCall(apiKey)).toMatchObject({ verified: false, error, status })
    },
    30_000,
  )

  it('times out a slow webhook as not verified, without holding up other requests', async () => {
    const slow = await dappWithWebhook('/slow')
    const other = await createDapp(service)
    const [slowOp, otherOp] = await Promise.all([
      buildSponsorRequestOp(service),
      buildSponsorRequestOp(service),
    ])
    let slowDone = false
    const slowRequest = callPaymaster(service, slow.apiKey, 'pm_sponsorUserOperation', [
      slowOp,
      sponsoredContext({ sponsorshipInfo: { webhookData: { wait: true } } }),
    ]).then((r) => {
      slowDone = true
      return r
    })
    // Wait until the service is actually waiting on the webhook, then ask for another sponsorship.
    while (!received.some((r) => r.url === '/slow')) await new Promise((r) => setTimeout(r, 10))
    const otherResponse = await callPaymaster(service, other.apiKey, 'pm_sponsorUserOperation', [
      otherOp,
      sponsoredContext(),
    ])
    expect(otherResponse.body.result.paymasterAndData).not.toBe('0x')
    expect(slowDone).toBe(false)
    const slowResponse = await slowRequest
    expect(slowResponse.body.result.paymasterAndData).toBe('0x')
    const call = await lastCall(slow.apiKey)
    expect(call).toMatchObject({
      verified: false,
      status: null,
      error: `No response within ${TIMEOUT_MS} ms (time-out)`,
    })
    expect(call.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
  }, 30_000)

  it('sends webhookData as query parameters to a GET webhook', async () => {
    const { apiKey } = await dappWithWebhook('/approve', 'GET')
    const { result } = await sponsor(apiKey, { userId: 'u 2', plan: { tier: 'gold' } })
    expect(result.paymasterAndData).not.toBe('0x')
    const request = received.filter((r) => r.method === 'GET').at(-1)!
    const url = new URL(request.url, webhookBase)
    expect(url.pathname).toBe('/approve')
    expect(url.searchParams.get('userId')).toBe('u 2')
    expect(url.searchParams.get('plan')).toBe('{"tier":"gold"}')
    expect(request.body).toBeNull()
  }, 30_000)

  it('does not call the webhook when the request carries no webhookData (spec section 6)', async () => {
    const { apiKey } = await dappWithWebhook('/deny')
    const before = received.length
    const { result } = await sponsor(apiKey)
    expect(result.paymasterAndData).not.toBe('0x')
    expect(received.length).toBe(before)
    expect((await lastDecision(apiKey)).steps.at(-1)).toMatchObject({ step: 'webhook', outcome: 'skip' })
  }, 30_000)

  it("answers pm_getFeeQuoteOrData SPONSORED with a JSON-RPC error carrying Biconomy's phrase when the webhook denies", async () => {
    const { apiKey } = await dappWithWebhook('/deny')
    const op = await buildSponsorRequestOp(service)
    const response = await callPaymaster(service, apiKey, 'pm_getFeeQuoteOrData', [
      op,
      sponsoredContext({ sponsorshipInfo: { webhookData: { a: 1 } } }),
    ])
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe(-32003)
    expect(response.body.error.message).toMatch(
      /^Not sponsored: Webhook did not verify: .*\. No policies were set that allow sponsoring this UserOperation$/,
    )
    expect(response.body.error.data).toMatchObject({ step: 'webhook', sponsorshipId: expect.any(String) })
  }, 30_000)

  it('runs a test call from the console and logs it like a real one', async () => {
    const { apiKey, dapp } = await dappWithWebhook('/approve')
    const webhookId = service.store.data.webhooks.find((w) => w.dappId === dapp.id)!.webhookId
    const { status, body } = await callConsole(
      service,
      `/console/api/dapps/${apiKey}/webhooks/${webhookId}/test`,
      {
        method: 'POST',
        body: { webhookData: { probe: true } },
      },
    )
    expect(status).toBe(200)
    expect(body).toMatchObject({
      message: 'Webhook verified',
      data: { verified: true, verdict: 'verified', httpStatus: 200 },
    })
    expect((await lastCall(apiKey)).id).toBe(body.data.id)
  }, 30_000)
})

describe('the webhook step for an EntryPoint v0.7 operation', () => {
  it('sends the v0.7 operation in its ERC-7769 form and sponsors when approved, not when denied', async () => {
    const approving = await dappWithWebhook('/approve')
    const op = await buildSponsorRequestOpV07(service)
    const context = sponsoredContext({ sponsorshipInfo: { webhookData: { userId: 'u-7' } } })
    const approved = await callPaymaster(service, approving.apiKey, 'pm_sponsorUserOperation', [op, context])
    expect(approved.body.result.paymaster).toBe(service.chain!.addresses.verifyingPaymasterV07)
    const request = received.filter((r) => r.url === '/approve').at(-1)!
    expect(request.body.data).toMatchObject({
      userId: 'u-7',
      userOp: { sender: op.sender, factory: op.factory, factoryData: op.factoryData, callData: op.callData },
    })
    expect(request.body.userOp.initCode).toBeUndefined()

    const denying = await dappWithWebhook('/deny')
    const denied = await callPaymaster(service, denying.apiKey, 'pm_sponsorUserOperation', [
      await buildSponsorRequestOpV07(service),
      context,
    ])
    expect(denied.body.result.paymaster).toBeUndefined()
    expect(denied.body.result.callGasLimit).toMatch(/^0x/)
    expect(await lastDecision(denying.apiKey)).toMatchObject({
      sponsored: false,
      entryPointVersion: '0.7',
    })
  })
})
