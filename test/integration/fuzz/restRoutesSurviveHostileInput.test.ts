import { afterAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { CHAIN_RPC_BY_ID_ROUTE, CHAIN_RPC_ROUTE } from '../../../src/main/service/server/chainRpcRoutes'
import { BUNDLER_ROUTE, PAYMASTER_ROUTE } from '../../../src/main/service/server/rpcRoutes'
import { requestJson, startTestService } from '../../helpers/startTestService'
import { callConsole, createDapp, registerToken } from '../paymaster/paymasterTestKit'
import {
  checkRestAnswer,
  describeRequest,
  type FuzzRequest,
  listRoutes,
  pathParameters,
  type RouteEntry,
  sendFuzzRequest,
  watchChainExits,
} from './fuzzHttp'
import {
  createRandom,
  encodeComponent,
  hostileJson,
  hostileTransport,
  JSON_EXTREMES,
  pathSegment,
  type Random,
  randomObject,
  randomValue,
  seedFor,
  serialize,
  TRANSPORT_VARIANTS,
} from './fuzzInputs'

/**
 * Every REST and console route the server lists, with valid credentials (so that the input gets past the auth
 * checks into the schemas) and a fixed set of hostile inputs per route: every transport variant (encodings,
 * framing, content types, sizes), the JSON extremes (10,000-deep nesting, huge strings, arrays and objects,
 * quantities above uint256, lone surrogates), bad path parameters and query strings, then seeded mutations of a
 * valid body. No answer may be a 5xx (but the chain-outage 503), take longer than REQUEST_TIMEOUT_MS, leave the
 * `{statusCode, message}` envelope or show a stack trace; the service must serve a normal request after each route.
 *
 * Replay: FUZZ_SEED=<seed> npx vitest run test/integration/fuzz/restRoutesSurviveHostileInput.test.ts -t '<route>'
 * (FUZZ_CASES raises the number of random mutations per route).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x4337)
const RANDOM_CASES = Number(process.env.FUZZ_CASES ?? 10)
const REQUEST_TIMEOUT_MS = 10_000

/** The JSON-RPC routes: their own fuzz test (rpcMethodsSurviveHostileInput.test.ts) speaks JSON-RPC to them. */
const RPC_ROUTES = new Set([BUNDLER_ROUTE, PAYMASTER_ROUTE, CHAIN_RPC_ROUTE, CHAIN_RPC_BY_ID_ROUTE])
/**
 * Routes that serve the console's page and its files (HTML, scripts, or a text 503 while the console is not
 * built), not JSON.
 */
const isPageRoute = (url: string) => url.startsWith('/console') && !url.startsWith('/console/api/')

const service = await startTestService()
afterAll(async () => service.dispose())

const routes: RouteEntry[] = listRoutes(service.app).filter((route) => !RPC_ROUTES.has(route.url))
const chain = service.chain!
const chainExits = watchChainExits(chain)

/** Records the routes work on, so that valid values reach past the lookups behind the schemas. */
async function createRecords() {
  const { apiKey } = await createDapp(service, 'fuzz-dapp')
  const token = await registerToken(service, apiKey, ['transfer'])
  const createWebhook = async () => {
    const res = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, {
      method: 'POST',
      headers: { authToken: service.authToken(), apiKey },
      body: { webhookUrl: 'http://127.0.0.1:1/hook', requestType: 'POST' },
    })
    return res.body.data.webhookId as string
  }
  const webhookId = await createWebhook()
  const deletableWebhookId = await createWebhook()
  const sandbox = await callConsole(service, '/console/api/sandbox/accounts', {
    method: 'POST',
    body: { type: 'SMART_ACCOUNT_V2' },
  })
  const sandboxAddress: string = sandbox.body.data.address
  const built = await callConsole(service, `/console/api/sandbox/accounts/${sandboxAddress}/user-operation`, {
    method: 'POST',
    body: { calls: [{ to: token, value: '0', data: '0x' }] },
  })
  return {
    apiKey,
    token,
    webhookId,
    deletableWebhookId,
    sandboxAddress,
    builtUserOperation: built.body.data.userOperation,
  }
}
// A failure here ends the file before its hooks run: stop the service (and its anvil) first.
const { apiKey, token, webhookId, deletableWebhookId, sandboxAddress, builtUserOperation } =
  await createRecords().catch(async (err) => {
    await service.dispose()
    throw err
  })

/** A path parameter's valid value, by its name (a parameter of a new route gets a plain string). */
const PATH_VALUES: Record<string, () => string> = {
  apiKey: () => apiKey,
  webhookId: () => webhookId,
  address: () => sandboxAddress,
  hash: () => `0x${'ab'.repeat(32)}`,
  id: () => 'fuzz-id',
}

/** A valid body (or query) per route where one is known; other routes get random objects of the API's fields. */
const VALID_INPUT: Record<string, () => unknown> = {
  'POST /api/v2/public/sdk/paymaster': () => ({
    name: 'fuzz-created',
    type: 'HYBRID',
    chainId: chain.chainId,
    version: '1.1.0',
  }),
  'POST /api/v2/public/sdk/smart-contract': () => ({
    name: 'fuzz-contract',
    address: chain.addresses.tokens[1]?.address ?? token,
    abi: JSON.stringify(testTokenAbi),
    whitelistedMethods: ['transfer'],
  }),
  'PATCH /api/v2/public/sdk/smart-contract': () => ({ address: token, whitelistedMethods: ['transfer'] }),
  'DELETE /api/v2/public/sdk/smart-contract': () => ({
    address: '0x000000000000000000000000000000000000dEaD',
  }),
  'POST /api/v2/public/sdk/webhook': () => ({ webhookUrl: 'http://127.0.0.1:1/hook', requestType: 'POST' }),
  'GET /api/v2/public/sdk/webhook': () => ({ webhookId }),
  'PATCH /api/v2/public/sdk/webhook': () => ({ webhookId, active: true }),
  'DELETE /api/v2/public/sdk/webhook': () => ({ webhookId: deletableWebhookId }),
  'PATCH /console/api/dapps/:apiKey': () => ({ active: true }),
  'GET /console/api/dapps/:apiKey/webhook-calls': () => ({ limit: 10, webhookId }),
  'POST /console/api/dapps/:apiKey/webhooks/:webhookId/test': () => ({ webhookData: { plan: 'gold' } }),
  'PATCH /console/api/dapps/:apiKey/policies': () => ({
    limits: [
      {
        type: 'PAYMASTER',
        thresholdType: 'COUNT',
        threshold: '100',
        cycleDuration: { value: 1, unit: 'day' },
      },
    ],
    validAfter: null,
    validUntil: null,
    premiumPercentage: 10,
  }),
  'POST /console/api/dapps/:apiKey/gas-tank': () => ({
    action: 'deposit',
    amountWei: '1000',
    entryPointVersion: '0.7',
  }),
  'GET /console/api/sponsorship-decisions': () => ({ limit: 10, apiKey, sponsored: 'true', sender: token }),
  'GET /console/api/sponsorships': () => ({ limit: 10, apiKey, sponsored: 'false' }),
  'POST /console/api/sandbox/accounts': () => ({ type: 'SIMPLE_ACCOUNT_V07', label: 'fuzz' }),
  'POST /console/api/sandbox/accounts/:address/user-operation': () => ({
    calls: [{ to: token, value: '0', data: '0x' }],
  }),
  'POST /console/api/sandbox/accounts/:address/sign': () => ({ userOperation: builtUserOperation }),
  'POST /console/api/sandbox/faucet': () => ({ address: sandboxAddress, asset: 'ETH', amount: '0.001' }),
  'PATCH /console/api/settings': () => ({ bundlingMode: 'auto', unsafe: false, webhookTimeoutMs: 3000 }),
  'PUT /console/api/token-prices': () => ({ tokenAddress: token, usdPrice: '1.01' }),
  'GET /console/api/user-operations': () => ({ limit: 10, before: 5 }),
  'POST /console/api/login': () => ({ token: 'not-the-token' }),
}

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD'

/** A query string from a JSON value: arrays repeat the key, objects use `a[b]`, deep values are cut short. */
function toQuery(value: unknown): string {
  const parts: string[] = []
  const add = (key: string, v: unknown, depth: number) => {
    if (depth > 4) return
    if (Array.isArray(v)) for (const item of v.slice(0, 50)) add(key, item, depth + 1)
    else if (v !== null && typeof v === 'object')
      for (const [k, child] of Object.entries(v).slice(0, 50)) add(`${key}[${k}]`, child, depth + 1)
    else parts.push(`${encodeComponent(key)}=${encodeComponent(String(v).slice(0, 2000))}`)
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value))
    for (const [k, v] of Object.entries(value)) add(k, v, 0)
  else add('q', value, 0)
  return parts.join('&')
}
/** Query strings that break parsers: bounds, repeated keys, brackets, broken escapes, a long one. */
const HOSTILE_QUERIES = [
  'limit=-1&before=-5',
  `limit=${'9'.repeat(400)}&before=1e999`,
  'limit=NaN&before=0x10&sponsored=maybe',
  'limit=1&limit=2&apiKey=a&apiKey=b&webhookId=x&webhookId=y',
  'a[b][c][d]=1&__proto__[x]=1&constructor[prototype][y]=2',
  'limit=%ED%A0%80&sender=%FF%FE&webhookId=%',
  `authToken=${'x'.repeat(20_000)}`,
]

function fillPath(url: string, r: Random, hostileParam?: string): string {
  return url
    .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const valid = PATH_VALUES[name]?.() ?? 'fuzz'
      return name === hostileParam ? hostileSegment(r) : encodeURIComponent(valid)
    })
    .replace(/\*$/, hostileParam === '*' ? hostileSegment(r) : 'fuzz')
}

/** A path segment that is never the valid one. */
function hostileSegment(r: Random): string {
  for (;;) {
    const segment = pathSegment(r, '')
    if (segment !== '') return segment
  }
}

type Case = { label: string; request: FuzzRequest }

/** The deterministic cases of one route: transports, JSON extremes and mutations, queries, path parameters. */
function casesFor(route: RouteEntry, r: Random): Case[] {
  const key = `${route.method} ${route.url}`
  const valid = VALID_INPUT[key]?.() ?? randomObject(r)
  const headers = () => ({ authToken: service.authToken(), apiKey, accept: 'application/json' })
  const path = (query = '') => `${fillPath(route.url, r)}${query ? `?${query}` : ''}`
  const cases: Case[] = []
  const validJson = serialize(valid)
  if (hasBody(route.method)) {
    for (let i = 0; i < TRANSPORT_VARIANTS; i++) {
      const t = hostileTransport(validJson, i, service.config.bodyLimit)
      cases.push({
        label: t.label,
        request: {
          method: route.method,
          path: path(),
          headers: { ...headers(), ...(t.contentType ? { 'content-type': t.contentType } : {}) },
          body: t.body,
          chunked: t.chunked,
        },
      })
    }
    for (let i = 0; i < JSON_EXTREMES + RANDOM_CASES; i++) {
      const { label, value } = hostileJson(r, valid, i)
      cases.push({
        label,
        request: {
          method: route.method,
          path: path(),
          headers: { ...headers(), 'content-type': 'application/json' },
          body: serialize(value),
        },
      })
    }
  } else {
    const queries = [
      ...HOSTILE_QUERIES,
      toQuery(valid),
      ...Array.from({ length: RANDOM_CASES }, (_, i) =>
        toQuery(i % 2 === 0 ? hostileJson(r, valid, JSON_EXTREMES + i).value : randomValue(r)),
      ),
    ]
    for (const query of queries)
      cases.push({ label: 'query', request: { method: route.method, path: path(query), headers: headers() } })
    // A body where none is expected.
    cases.push({
      label: 'a body on a GET',
      request: {
        method: route.method,
        path: path(),
        headers: { ...headers(), 'content-type': 'application/json' },
        body: serialize(valid),
      },
    })
  }
  // Credentials of the wrong shape (the checks before the schemas must hold too).
  for (const credentials of [
    { authToken: 'x'.repeat(8000), apiKey: 'y'.repeat(8000) },
    { authToken: ' \t ', apiKey: '\u00ff\u00fe' },
  ]) {
    cases.push({
      label: 'hostile credentials',
      request: {
        method: route.method,
        path: path(),
        headers: { ...credentials, accept: 'application/json', 'content-type': 'application/json' },
        body: hasBody(route.method) ? validJson : undefined,
        keepCredentials: true,
      },
    })
  }
  for (const param of [...pathParameters(route.url), ...(route.url.endsWith('*') ? ['*'] : [])]) {
    for (let i = 0; i < 4; i++) {
      cases.push({
        label: `bad path parameter ${param}`,
        request: {
          method: route.method,
          path: fillPath(route.url, r, param),
          headers: { ...headers(), ...(hasBody(route.method) ? { 'content-type': 'application/json' } : {}) },
          body: hasBody(route.method) ? validJson : undefined,
        },
      })
    }
  }
  return cases
}

/** A normal request the service must still answer after a route's fuzz: the dashboard list and the health check. */
async function expectServiceServes(afterRoute: string) {
  expect(chainExits.take(), `the chain exited while fuzzing ${afterRoute}`).toEqual([])
  const list = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
    headers: { authToken: service.authToken() },
  })
  expect(list.status, `the paymaster list after fuzzing ${afterRoute}`).toBe(200)
  const health = await requestJson(`${service.baseUrl}/health`)
  expect(health.body, `the health check after fuzzing ${afterRoute}`).toEqual({ status: 'ok' })
}

describe(`REST and console routes answer hostile input with a 4xx in their envelope (seed ${SEED})`, () => {
  it('the route list comes from the server and holds the dashboard and console routes', () => {
    const urls = new Set(routes.map((route) => route.url))
    for (const url of ['/api/v2/public/sdk/paymaster', '/console/api/settings', '/console/api/dapps/:apiKey'])
      expect(urls).toContain(url)
    expect(routes.length).toBeGreaterThan(30)
  })

  for (const route of routes) {
    const key = `${route.method} ${route.url}`
    it(key, { timeout: 180_000 }, async () => {
      const seed = seedFor(SEED, key)
      const cases = casesFor(route, createRandom(seed))
      const failures: string[] = []
      const statuses = new Map<string, number>()
      for (const [index, { label, request }] of cases.entries()) {
        // Credentials as they are now (a fuzzed POST /console/api/account/auth-token replaces the token).
        if (!request.keepCredentials) request.headers.authToken = service.authToken()
        const answer = await sendFuzzRequest(service.baseUrl, request, REQUEST_TIMEOUT_MS)
        const outcome =
          answer.kind === 'answer' ? `${answer.status} ${answer.text.slice(0, 60)}` : answer.kind
        statuses.set(outcome, (statuses.get(outcome) ?? 0) + 1)
        for (const problem of checkRestAnswer(answer, route.method, isPageRoute(route.url)))
          failures.push(`case ${index} ${problem}\n    ${describeRequest(request, label)}`)
      }
      // FUZZ_REPORT=1 shows what the cases met, to judge how far past the schemas they reach.
      if (process.env.FUZZ_REPORT) console.log(key, Object.fromEntries(statuses))
      expect(failures, `${key}: seed ${SEED} (route seed ${seed}), ${cases.length} cases`).toEqual([])
      await expectServiceServes(key)
    })
  }
})
