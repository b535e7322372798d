import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { writeApiDocs } from '../../../scripts/lib/writeApiDocs'
import { ENTRY_POINT_VERSIONS } from '../../../src/shared/entryPointVersions'
import { makeTempDir } from '../../helpers/makeTempDir'
import { requestRaw } from '../../helpers/requestRaw'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

/** Every route the real server registers, seen by an onRoute hook of our own on each Fastify instance it makes. */
const registered = vi.hoisted(() => [] as { method: string; url: string }[])

vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>()
  const createApp = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options)
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url })
    })
    return app
  }) as typeof actual.default
  return { ...actual, default: createApp }
})

/**
 * Routes left out of the OpenAPI document on purpose. Beside these, Fastify adds a HEAD route to every GET (the
 * GET's documentation covers it).
 */
const UNDOCUMENTED = [
  { method: 'OPTIONS', url: '/api/v2/:chainId/:bundlerKey', why: 'CORS preflight of the bundler JSON-RPC' },
  {
    method: 'OPTIONS',
    url: '/api/v1/:chainId/:paymasterApiKey',
    why: 'CORS preflight of the paymaster JSON-RPC',
  },
  { method: 'OPTIONS', url: '/rpc', why: 'CORS preflight of the chain JSON-RPC' },
  { method: 'OPTIONS', url: '/rpc/:chainId', why: "CORS preflight of a chain's JSON-RPC" },
  { method: 'GET', url: '/console/', why: 'the console app itself (HTML)' },
  { method: 'GET', url: '/console/*', why: "the console's assets and client-side routes" },
]

/** `/a/:b` → `/a/{b}`, as OpenAPI writes a path. */
const toTemplate = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

type Operation = {
  operationId: string
  summary: string
  tags: string[]
  security?: Record<string, string[]>[]
  parameters?: { name: string; in: string; required: boolean }[]
  requestBody?: unknown
  responses: Record<string, unknown>
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>> }

/** What OpenRPC 1.3 asks of a document (open-rpc/meta-schema): the parts this one uses. */
const ContentDescriptorSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  summary: z.string().optional(),
  required: z.boolean().optional(),
  schema: z.record(z.string(), z.unknown()),
})
const OpenRpcSchema = z.strictObject({
  openrpc: z.string().regex(/^1\.\d+\.\d+$/),
  info: z.strictObject({ title: z.string(), description: z.string().optional(), version: z.string() }),
  servers: z.array(
    z.strictObject({
      name: z.string(),
      url: z.string(),
      summary: z.string().optional(),
      variables: z.record(
        z.string(),
        z.strictObject({ default: z.string(), description: z.string().optional() }),
      ),
    }),
  ),
  methods: z.array(
    z.strictObject({
      name: z.string().min(1),
      summary: z.string().min(1),
      tags: z.array(z.strictObject({ name: z.string().min(1), description: z.string().optional() })),
      paramStructure: z.enum(['by-position', 'by-name', 'either']),
      params: z.array(ContentDescriptorSchema),
      result: ContentDescriptorSchema,
    }),
  ),
})

let service: TestService
let openapi: OpenApi

beforeAll(async () => {
  service = await startTestService({ noChain: true })
  openapi = (await (await fetch(`${service.baseUrl}/docs/openapi.json`)).json()) as OpenApi
})
afterAll(async () => service?.dispose())

const operations = () =>
  Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  )

describe('the OpenAPI document (/docs/openapi.json)', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(openapi))
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('documents every route the server registers, and no other (but a short list, each for a reason)', () => {
    const seen = new Set(registered.map((r) => `${r.method} ${r.url}`))
    const excluded = new Set(UNDOCUMENTED.map((r) => `${r.method} ${r.url}`))
    // A stale exclusion is a mistake too.
    for (const route of excluded) expect(seen, `${route} is still a route`).toContain(route)
    const routes = registered.filter(
      (r) => !excluded.has(`${r.method} ${r.url}`) && !(r.method === 'HEAD' && seen.has(`GET ${r.url}`)),
    )
    expect(routes.length).toBeGreaterThan(40)
    const missing = routes
      .filter((r) => openapi.paths[toTemplate(r.url)]?.[r.method.toLowerCase()] === undefined)
      .map((r) => `${r.method} ${r.url}`)
    expect(missing, 'routes without documentation (give them withDoc, docs/routeDoc.ts)').toEqual([])
    const documented = operations().map((o) => `${o.method.toUpperCase()} ${o.path}`)
    const served = new Set(routes.map((r) => `${r.method} ${toTemplate(r.url)}`))
    expect(documented.filter((o) => !served.has(o))).toEqual([])
    expect(new Set(documented).size).toBe(documented.length)
  })

  it('names each operation, its path parameters, its answer and its credentials', () => {
    const ids = operations().map((o) => o.operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    for (const { path, method, operation } of operations()) {
      const where = `${method.toUpperCase()} ${path}`
      expect(operation.summary, where).not.toBe('')
      expect(operation.tags, where).toHaveLength(1)
      expect(operation.responses['200'], where).toBeDefined()
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])
      const params = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name)
      expect(params, where).toEqual(inPath)
    }
    const security = (path: string, method: string) => openapi.paths[path]?.[method]?.security
    // Spec section 5: authToken everywhere, apiKey too for webhooks and smart contracts.
    expect(security('/api/v2/public/sdk/paymaster', 'post')).toEqual([{ authToken: [] }])
    for (const method of ['get', 'post', 'patch', 'delete']) {
      expect(security('/api/v2/public/sdk/webhook', method)).toEqual([{ authToken: [], apiKey: [] }])
      expect(security('/api/v2/public/sdk/smart-contract', method)).toEqual([{ authToken: [], apiKey: [] }])
    }
    expect(security('/console/api/session', 'get')).toEqual([{ consoleSession: [] }, { authToken: [] }])
    expect(security('/docs/openapi.json', 'get')).toBeUndefined()
  })

  it('shows string arrays, enums and optional fields of the bodies as clients send them', () => {
    const body = (path: string, method: string) =>
      (openapi.paths[path]![method]!.requestBody as any).content['application/json'].schema
    const update = body('/api/v2/public/sdk/smart-contract', 'patch')
    expect(update.properties.whitelistedMethods).toMatchObject({ type: 'array', items: { type: 'string' } })
    expect(update.required).toEqual(['address', 'whitelistedMethods'])
    const create = body('/api/v2/public/sdk/smart-contract', 'post')
    expect(create.properties.whitelistedMethods).toMatchObject({ type: 'array', items: { type: 'string' } })
    expect(create.required).toEqual(['name', 'address', 'abi'])
    expect(body('/api/v2/public/sdk/webhook', 'patch').properties.active).toEqual({ type: 'boolean' })
    expect(body('/console/api/settings', 'patch').properties.bundlingMode).toMatchObject({
      enum: ['auto', 'interval', 'manual'],
    })
  })
})

describe('the schemas the documents are built from', () => {
  it("keep the routes' messages (whitelistedMethods is now one array schema) and letter-case leniency", async () => {
    const headers = { authToken: service.authToken() }
    const created = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers,
      body: { name: 'schemas', type: 'hybrid', chainId: 31337, version: '1' },
    })
    expect(created.status).toBe(200)
    const dapp = { ...headers, apiKey: created.body.data.apiKey }
    const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    for (const [whitelistedMethods, message] of [
      [undefined, 'whitelistedMethods is required'],
      [null, 'whitelistedMethods must be an array'],
      ['f', 'whitelistedMethods must be an array'],
      [[1], 'whitelistedMethods must contain only strings'],
    ] as const) {
      const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, {
        method: 'PATCH',
        headers: dapp,
        body: { address, whitelistedMethods },
      })
      expect(res.body).toEqual({ statusCode: 400, message })
    }
    const webhook = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, {
      method: 'POST',
      headers: dapp,
      body: { webhookUrl: 'https://example.com/hook', requestType: 'get' },
    })
    expect(webhook.body.data).toMatchObject({ requestType: 'GET', active: true })
  })
})

describe('the OpenRPC document (/docs/openrpc.json)', () => {
  it('describes every method of the bundler and the paymaster with its params and result', async () => {
    const openrpc = OpenRpcSchema.parse(await (await fetch(`${service.baseUrl}/docs/openrpc.json`)).json())
    const { bundler, paymaster } = service.rpcMethods
    const names = new Set([...bundler.keys(), ...paymaster.keys()])
    expect(openrpc.methods.map((m) => m.name).sort()).toEqual([...names].sort())
    for (const method of [...bundler.values(), ...paymaster.values()]) {
      expect(method.summary, `${method.name} has a summary`).toBeDefined()
      expect(method.result, `${method.name} declares its result`).toBeDefined()
    }
    for (const method of openrpc.methods) {
      const tags = method.tags.map((t) => t.name)
      expect(tags.includes('bundler'), method.name).toBe(bundler.has(method.name))
      expect(tags.includes('paymaster'), method.name).toBe(paymaster.has(method.name))
      const admin = bundler.get(method.name)?.admin === true || paymaster.get(method.name)?.admin === true
      expect(tags.includes('admin'), method.name).toBe(admin)
      expect(
        method.params.map((p) => p.name).every((n) => !/^param\d+$/.test(n)),
        method.name,
      ).toBe(true)
    }
    const byName = new Map(openrpc.methods.map((m) => [m.name, m]))
    expect(byName.get('debug_bundler_clearState')?.tags.map((t) => t.name)).toEqual(['bundler', 'admin'])
    expect(byName.get('eth_call')?.tags.map((t) => t.name)).toEqual(['bundler', 'chain'])
    // The paymaster URL answers the gas price methods clients send it, also on a service without a chain (whose
    // documents the package ships).
    for (const name of ['pimlico_getUserOperationGasPrice', 'zd_getUserOperationGasPrice'])
      expect(byName.get(name)?.tags.map((t) => t.name)).toEqual(['bundler', 'paymaster'])
    expect(byName.get('eth_sendUserOperation')?.params.map((p) => [p.name, p.required])).toEqual([
      ['userOperation', true],
      ['entryPoint', true],
      ['simulation', false],
    ])
    // A param the handler parses later is documented with the schema it is parsed with: one form per EntryPoint
    // version, from its module.
    const userOperation = byName.get('eth_sendUserOperation')?.params[0]?.schema as {
      anyOf: { description?: string }[]
    }
    expect(userOperation.anyOf.map((form) => form.description)).toEqual(
      ENTRY_POINT_VERSIONS.map((version) => `EntryPoint v${version}`),
    )
    expect(JSON.stringify(byName.get('pm_getFeeQuoteOrData')?.result.schema)).toContain('feeQuotes')
  })
})

describe('the reference page (/docs/)', () => {
  it('names every path and every JSON-RPC method, and loads nothing from elsewhere', async () => {
    const res = await fetch(`${service.baseUrl}/docs/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await res.text()
    for (const path of Object.keys(openapi.paths)) expect(html, path).toContain(`<code>${path}</code>`)
    for (const name of [...service.rpcMethods.bundler.keys(), ...service.rpcMethods.paymaster.keys()])
      expect(html, name).toContain(`<code>${name}</code>`)
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|@import|url\(/i)
    expect(html).not.toMatch(/href="(https?:)?\/\//i)
  })
})

describe('serving', () => {
  it('needs no credential, sends /docs to /docs/, and stays behind the Host check', async () => {
    const bare = await requestRaw(`${service.baseUrl}/docs`, { method: 'GET' })
    expect([bare.status, bare.headers.location]).toEqual([308, '/docs/'])
    for (const url of ['/docs/', '/docs/openapi.json', '/docs/openrpc.json']) {
      const res = await requestRaw(`${service.baseUrl}${url}`, { method: 'GET' })
      expect(res.status, url).toBe(200)
      const refused = await requestRaw(`${service.baseUrl}${url}`, {
        method: 'GET',
        headers: { host: 'evil.example' },
      })
      expect(refused.status, url).toBe(403)
    }
    const crossOrigin = await requestRaw(`${service.baseUrl}/docs/openapi.json`, {
      method: 'GET',
      headers: { origin: 'http://evil.example' },
    })
    expect(crossOrigin.status).toBe(403)
  })

  it('writeApiDocs writes the documents the service serves into a folder', async () => {
    const dir = await makeTempDir('opstation-api-docs-')
    const files = await writeApiDocs(dir)
    expect(files.map((f) => path.basename(f))).toEqual(['openapi.json', 'openrpc.json', 'index.html'])
    expect(JSON.parse(await readFile(path.join(dir, 'openapi.json'), 'utf8'))).toEqual(openapi)
    const html = await readFile(path.join(dir, 'index.html'), 'utf8')
    expect(html).toContain('href="openapi.json"')
    expect(html).toContain('href="openrpc.json"')
  })
})
