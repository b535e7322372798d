import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

const README = path.resolve(import.meta.dirname, '../../../README.md')
const HEADING = '## REST API by curl'

/** One request the session made and its answer, as they crossed the wire. */
type Exchange = { method: string; path: string; requestBody: string; status: number; responseBody: string }

/** The spec's REST operations, in the session's order. */
const OPERATIONS = [
  ['POST', '/api/v2/public/sdk/paymaster'],
  ['GET', '/api/v2/public/sdk/paymaster'],
  ['POST', '/api/v2/public/sdk/smart-contract'],
  ['GET', '/api/v2/public/sdk/smart-contract'],
  ['PATCH', '/api/v2/public/sdk/smart-contract'],
  ['DELETE', '/api/v2/public/sdk/smart-contract'],
  ['POST', '/api/v2/public/sdk/webhook'],
  ['GET', '/api/v2/public/sdk/webhook'],
  ['PATCH', '/api/v2/public/sdk/webhook'],
  ['DELETE', '/api/v2/public/sdk/webhook'],
] as const

/** The first ```bash block after the README's heading, as it stands. */
async function readCurlSession(): Promise<string> {
  const readme = await readFile(README, 'utf8')
  const start = readme.indexOf(`\n${HEADING}\n`)
  expect(start, `README has the heading "${HEADING}"`).toBeGreaterThan(-1)
  const block = readme.slice(start).match(/\n```bash\n([\s\S]*?)\n```\n/)
  expect(block, `a bash block follows "${HEADING}"`).not.toBeNull()
  return block![1]!
}

/** An HTTP proxy in front of the service that keeps every exchange: what curl really sent and got. */
async function startRecordingProxy(target: string) {
  const exchanges: Exchange[] = []
  const { hostname, port } = new URL(target)
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks)
      const forward = http.request(
        {
          host: hostname,
          port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: `${hostname}:${port}` },
        },
        (answer) => {
          const parts: Buffer[] = []
          answer.on('data', (chunk: Buffer) => parts.push(chunk))
          answer.on('end', () => {
            const responseBody = Buffer.concat(parts)
            exchanges.push({
              method: req.method ?? '',
              path: (req.url ?? '').split('?')[0] ?? '',
              requestBody: requestBody.toString('utf8'),
              status: answer.statusCode ?? 0,
              responseBody: responseBody.toString('utf8'),
            })
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(responseBody)
          })
        },
      )
      forward.on('error', (err) => res.writeHead(502).end(String(err)))
      forward.end(requestBody)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: proxyPort } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${proxyPort}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function hasCurl(): Promise<boolean> {
  return promisify(execFile)('curl', ['--version']).then(
    () => true,
    () => false,
  )
}

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: any; responses: Record<string, any> }>>
}

let service: TestService
let openapi: OpenApi

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  const res = await fetch(`${service.baseUrl}/docs/openapi.json`)
  openapi = (await res.json()) as OpenApi
})
afterAll(async () => service?.dispose())

describe('the README curl session', () => {
  it('runs as it stands against a started service; every answer is 200 and fits its documented schema', async () => {
    expect(await hasCurl(), 'curl must be on PATH (apt-get install curl)').toBe(true)
    const script = await readCurlSession()
    const proxy = await startRecordingProxy(service.baseUrl)
    try {
      const run = await promisify(execFile)(
        'bash',
        ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script],
        {
          env: { ...process.env, OPSTATION: proxy.url, DATA_DIR: service.dataDir },
          timeout: 60_000,
        },
      )
      expect(run.stderr).toBe('')
    } finally {
      await proxy.close()
    }

    const exchanges = proxy.exchanges
    expect(exchanges.map((e) => [e.method, e.path])).toEqual(OPERATIONS.map(([m, p]) => [m, p]))
    for (const exchange of exchanges) {
      const where = `${exchange.method} ${exchange.path}`
      expect(exchange.status, `${where}: ${exchange.responseBody}`).toBe(200)
      const operation = openapi.paths[exchange.path]?.[exchange.method.toLowerCase()]
      expect(operation, `${where} is documented`).toBeDefined()
      // The answer as the published document describes it (read back into zod from its JSON Schema).
      const answerSchema = z.fromJSONSchema(operation!.responses['200'].content['application/json'].schema)
      const answer = answerSchema.safeParse(JSON.parse(exchange.responseBody))
      expect(answer.error, `${where} answer ${exchange.responseBody}`).toBeUndefined()
      // And the body curl sent, as the document describes what the route reads.
      const bodySchema = operation!.requestBody?.content['application/json'].schema
      if (exchange.requestBody !== '') {
        expect(bodySchema, `${where} documents its body`).toBeDefined()
        const body = z.fromJSONSchema(bodySchema).safeParse(JSON.parse(exchange.requestBody))
        expect(body.error, `${where} body ${exchange.requestBody}`).toBeUndefined()
      }
    }

    // What the session did, read back from its own answers.
    const data = exchanges.map((e) => JSON.parse(e.responseBody).data)
    const apiKey = data[0].apiKey as string
    expect(data[1]).toContainEqual(expect.objectContaining({ apiKey, chainId: 31337 }))
    expect(data[3]).toEqual([expect.objectContaining({ name: 'Counter', whitelistedMethods: ['increment'] })])
    expect(data[4]).toMatchObject({
      whitelistedMethods: ['increment', 'reset'],
      methods: ['increment', 'reset'],
    })
    const webhookId = data[6].webhookId as string
    expect(data[7]).toEqual([
      { webhookId, webhookUrl: 'https://example.com/opstation-webhook', requestType: 'POST', active: true },
    ])
    const messages = exchanges.map((e) => JSON.parse(e.responseBody).message)
    expect(messages.slice(5)).toEqual([
      'Smart contract deleted',
      'Webhook created',
      'Webhook fetched',
      'Webhook updated',
      'Webhook deleted',
    ])
    // Nothing is left of the contract and the webhook.
    const headers = { authToken: service.authToken(), apiKey }
    const contracts = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, { headers })
    expect(contracts.body.data).toEqual([])
    const webhooks = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, { headers })
    expect(webhooks.body.data).toEqual([])
  })
})
