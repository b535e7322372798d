import { numberToHex } from 'viem'
import { entryPoint06Address, entryPoint07Address } from 'viem/account-abstraction'
import { afterAll, describe, expect, it } from 'vitest'
import { NODE_METHODS } from '../../../src/main/service/bundler/methods/forwardToNode'
import { CHAIN_RPC_BY_ID_ROUTE, CHAIN_RPC_ROUTE } from '../../../src/main/service/server/chainRpcRoutes'
import { BUNDLER_ROUTE, PAYMASTER_ROUTE } from '../../../src/main/service/server/rpcRoutes'
import { startTestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  buildSponsorRequestOpV07,
  createDapp,
  sponsoredContext,
} from '../paymaster/paymasterTestKit'
import {
  checkRpcAnswer,
  describeRequest,
  type FuzzRequest,
  listRoutes,
  sendFuzzRequest,
  watchChainExits,
} from './fuzzHttp'
import {
  createRandom,
  deep,
  hostileJson,
  hostileTransport,
  JSON_EXTREMES,
  mutate,
  pathSegment,
  type Random,
  randomValue,
  seedFor,
  serialize,
  TRANSPORT_VARIANTS,
} from './fuzzInputs'

/**
 * Every JSON-RPC method of the bundler and paymaster registries (and the chain RPC's node methods), with valid
 * credentials in the URL, and per method a fixed set of hostile params: the JSON extremes (10,000-deep nesting,
 * huge strings, arrays and objects, quantities above uint256, lone surrogates) on the params and on the first
 * param, then seeded mutations of valid params. Per endpoint: hostile envelopes (ids, versions, method names,
 * batches, notifications), every transport variant (encodings, framing, content types, sizes) and bad path
 * segments. No answer may be a 5xx (but the chain-outage 503), an internal error, take longer than
 * REQUEST_TIMEOUT_MS, leave the JSON-RPC envelope or show a stack trace; the service must serve a normal call
 * after each method.
 *
 * Replay: FUZZ_SEED=<seed> npx vitest run test/integration/fuzz/rpcMethodsSurviveHostileInput.test.ts -t '<method>'
 * (FUZZ_CASES raises the number of random mutations per method).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x4337)
const RANDOM_CASES = Number(process.env.FUZZ_CASES ?? 8)
const REQUEST_TIMEOUT_MS = 10_000

const service = await startTestService()
afterAll(async () => service.dispose())

const chain = service.chain!
const chainExits = watchChainExits(chain)
const routes = listRoutes(service.app)
const bundlerKey = () => service.store.data.accounts[0]!.bundlerKey
const token = chain.addresses.tokens[0]!.address
const someAddress = '0x000000000000000000000000000000000000dEaD'
const someHash = `0x${'ab'.repeat(32)}`

/** A dApp for the paymaster URL, and valid operations, so that mutations reach the simulation and the policies. */
async function createRecords() {
  const { apiKey } = await createDapp(service, 'fuzz-rpc-dapp')
  const op06 = await buildSponsorRequestOp(service)
  const op07 = await buildSponsorRequestOpV07(service)
  const op06WithGas = {
    ...op06,
    callGasLimit: '0x30000',
    verificationGasLimit: '0x80000',
    preVerificationGas: '0xc000',
  }
  return { apiKey, op06, op06WithGas, op07 }
}
// A failure here ends the file before its hooks run: stop the service (and its anvil) first.
const { apiKey, op06, op06WithGas, op07 } = await createRecords().catch(async (err) => {
  await service.dispose()
  throw err
})

type Endpoint = { name: string; route: string; path: () => string; methods: string[] }

/** The JSON-RPC endpoints and the methods their registries serve (a method added later is fuzzed too). */
const ENDPOINTS: Endpoint[] = [
  {
    name: 'bundler',
    route: BUNDLER_ROUTE,
    path: () => `/api/v2/${chain.chainId}/${bundlerKey()}`,
    methods: [...service.rpcMethods.bundler.keys()],
  },
  {
    name: 'paymaster',
    route: PAYMASTER_ROUTE,
    path: () => `/api/v1/${chain.chainId}/${apiKey}`,
    methods: [...service.rpcMethods.paymaster.keys()],
  },
  // The chain's own JSON-RPC: what the service lets any caller forward to the node.
  {
    name: 'chain',
    route: CHAIN_RPC_ROUTE,
    path: () => CHAIN_RPC_ROUTE,
    methods: ['eth_chainId', ...NODE_METHODS],
  },
  // The same chain by its id (/rpc/:chainId, the URL of each chain of a service of several): the same handler as
  // /rpc once the chain is found, so its envelope is fuzzed here and its methods above.
  {
    name: 'chain by id',
    route: CHAIN_RPC_BY_ID_ROUTE,
    path: () => `/rpc/${chain.chainId}`,
    methods: ['eth_chainId'],
  },
]

/** Valid params per method where known; other methods get mutations of an empty list and random values. */
const VALID_PARAMS: Record<string, () => unknown[]> = {
  eth_sendUserOperation: () => [op06WithGas, entryPoint06Address],
  eth_estimateUserOperationGas: () => [op07, entryPoint07Address, { [someAddress]: { balance: '0x1' } }],
  eth_getUserOperationReceipt: () => [someHash],
  eth_getUserOperationByHash: () => [someHash],
  biconomy_getUserOperationStatus: () => [someHash],
  opstation_traceUserOperation: () => [someHash],
  opstation_simulateUserOperation: () => [op07, entryPoint07Address],
  debug_bundler_setConfiguration: () => [{ nonceGapWaitMs: 100, receiptWaitMs: 100 }],
  debug_bundler_getStakeStatus: () => [chain.addresses.smartAccountFactory, entryPoint06Address],
  debug_bundler_dumpMempool: () => [entryPoint06Address],
  debug_bundler_dumpReputation: () => [entryPoint06Address],
  debug_bundler_setBundlingMode: () => ['auto'],
  debug_bundler_setReputation: () => [
    [{ address: chain.addresses.smartAccountFactory, opsSeen: '0x1', opsIncluded: '0x1' }],
    entryPoint06Address,
  ],
  pm_sponsorUserOperation: () => [
    op06,
    sponsoredContext({ expiryDuration: 300, webhookData: { plan: 'gold' } }),
  ],
  pm_getFeeQuoteOrData: () => [
    op06,
    { mode: 'ERC20', tokenInfo: { tokenList: [token], preferredToken: token } },
  ],
  pm_getPaymasterStubData: () => [op07, entryPoint07Address, numberToHex(chain.chainId), {}],
  pm_getPaymasterData: () => [op07, entryPoint07Address, numberToHex(chain.chainId), {}],
  eth_call: () => [{ to: token, data: '0x18160ddd' }, 'latest'],
  eth_estimateGas: () => [{ to: someAddress, value: '0x1' }],
  eth_feeHistory: () => ['0x4', 'latest', [25, 75]],
  eth_getBalance: () => [someAddress, 'latest'],
  eth_getBlockByNumber: () => ['latest', false],
  eth_getBlockByHash: () => [someHash, false],
  eth_getBlockReceipts: () => ['latest'],
  eth_getCode: () => [token, 'latest'],
  eth_getLogs: () => [{ fromBlock: '0x0', toBlock: 'latest', address: token }],
  eth_getProof: () => [token, ['0x0'], 'latest'],
  eth_getStorageAt: () => [token, '0x0', 'latest'],
  eth_getTransactionByHash: () => [someHash],
  eth_getTransactionCount: () => [someAddress, 'latest'],
  eth_getTransactionReceipt: () => [someHash],
  eth_sendRawTransaction: () => [`0x02f8${'ab'.repeat(100)}`],
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' }

type Case = { label: string; request: FuzzRequest }

const call = (method: unknown, params: unknown, id: unknown = 1) => ({ jsonrpc: '2.0', id, method, params })

/** The cases of one method: the extremes on its params, then inside its first param, then mutations. */
function methodCases(endpoint: Endpoint, method: string, r: Random): Case[] {
  const valid = VALID_PARAMS[method]?.() ?? []
  const cases: Case[] = []
  const add = (label: string, params: unknown) =>
    cases.push({
      label,
      request: {
        method: 'POST',
        path: endpoint.path(),
        headers: { ...JSON_HEADERS },
        body: serialize(call(method, params, cases.length)),
      },
    })
  for (let i = 0; i < JSON_EXTREMES; i++) {
    const { label, value } = hostileJson(r, valid, i)
    add(`params: ${label}`, value)
  }
  // Inside the first param where it is an object (an operation, a call, a context): past the params' own schema.
  const first = valid[0]
  if (first !== null && typeof first === 'object') {
    for (let i = 0; i < JSON_EXTREMES; i++) {
      const { label, value } = hostileJson(r, first, i)
      add(`params[0]: ${label}`, [value, ...valid.slice(1)])
    }
  }
  for (let i = 0; i < RANDOM_CASES; i++) {
    if (r.chance(0.8)) add('a mutation of valid params', mutate(r, valid))
    else add('random params', randomValue(r))
  }
  return cases
}

/** Hostile envelopes, batches, notifications, transports, path segments and headers at one endpoint. */
function endpointCases(endpoint: Endpoint, r: Random): Case[] {
  const cases: Case[] = []
  const add = (label: string, body: unknown, extra: Partial<FuzzRequest> = {}) =>
    cases.push({
      label,
      request: {
        method: 'POST',
        path: endpoint.path(),
        headers: { ...JSON_HEADERS },
        body: typeof body === 'string' ? body : serialize(body),
        ...extra,
      },
    })
  const cheap = endpoint.methods.includes('eth_chainId') ? 'eth_chainId' : (endpoint.methods[0] as string)
  for (const id of [{}, [], true, 1.5, 1e308, -0, 'x'.repeat(100_000), deep(10_000)])
    add('id', call(cheap, [], id))
  for (const jsonrpc of ['1.0', 2, null, '2.0 ', '\ud800']) add('jsonrpc', { ...call(cheap, []), jsonrpc })
  add('no jsonrpc', { id: 1, method: cheap, params: [] })
  const methodNames = [
    42,
    '',
    null,
    'x'.repeat(100_000),
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
  ]
  for (const method of [...methodNames, 'eth_chainId\u0000', '\ud800', deep(10_000)])
    add('method', call(method, []))
  for (const params of [{}, 'params', 42, null, deep(10_000), { 0: 'a', length: 1 }])
    add('params not a list', call(cheap, params))
  add('empty batch', [])
  add('batch of non-objects', [1, 'a', null, [], true])
  add('nested batch', [[call(cheap, [])]])
  add(
    'batch of 1,000 calls',
    Array.from({ length: 1000 }, (_, i) => call(cheap, [], i)),
  )
  add(
    'batch of random calls',
    Array.from({ length: 40 }, (_, i) => call(r.pick(endpoint.methods), randomValue(r), i)),
  )
  add('a notification', { jsonrpc: '2.0', method: cheap, params: [] })
  add('a batch of notifications', [
    { jsonrpc: '2.0', method: cheap },
    { jsonrpc: '2.0', method: 'nope' },
  ])
  add('a batch with notifications and calls', [{ jsonrpc: '2.0', method: cheap }, call(cheap, [], 'x')])
  const json = serialize(call(cheap, []))
  for (let i = 0; i < TRANSPORT_VARIANTS; i++) {
    const t = hostileTransport(json, i, service.config.bodyLimit)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (t.contentType) headers['content-type'] = t.contentType
    add(t.label, t.body ?? '', { headers, body: t.body, chunked: t.chunked })
  }
  for (const accept of ['*/*', 'text/html', 'application/json;q=0', '']) {
    add(`accept ${JSON.stringify(accept)}`, call('no_such_method', []), {
      headers: { 'content-type': 'application/json', accept },
    })
  }
  add('a web page: text/plain with an Origin', json, {
    headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
  })
  add(
    'a web page: an admin method from another origin',
    call('debug_bundler_dumpMempool', [entryPoint06Address]),
    {
      headers: { ...JSON_HEADERS, origin: 'http://evil.example' },
    },
  )
  // CORS preflights, with what a page may ask for.
  const preflights: Record<string, string>[] = [
    {},
    { origin: 'http://evil.example', 'access-control-request-headers': `x-${'a'.repeat(8000)}` },
    {
      origin: 'null',
      'access-control-request-private-network': 'true',
      'access-control-request-method': 'PUT',
    },
  ]
  for (const headers of preflights) add('a preflight', '', { method: 'OPTIONS', headers, body: undefined })
  // Bad path segments: the chain id, the key, extra segments.
  const [, version, chainId, key] = /^\/api\/(v[12])\/([^/]+)\/([^/]+)$/.exec(endpoint.path()) ?? []
  if (version && chainId && key) {
    for (let i = 0; i < 6; i++) {
      const badChain = i % 2 === 0
      const segment = pathSegment(r, badChain ? chainId : key)
      add(`bad path segment (${badChain ? 'chain id' : 'key'})`, json, {
        path: `/api/${version}/${badChain ? segment : chainId}/${badChain ? key : segment}`,
      })
    }
    add('a chain id above uint256', json, { path: `/api/${version}/1${'0'.repeat(80)}/${key}` })
  }
  return cases
}

/** Sends the cases in order; returns every problem found, each with its case. */
async function runCases(cases: Case[]): Promise<string[]> {
  const failures: string[] = []
  for (const [index, { label, request }] of cases.entries()) {
    const answer = await sendFuzzRequest(service.baseUrl, request, REQUEST_TIMEOUT_MS)
    // FUZZ_REPORT=1 shows what each case met, to judge how far past the schemas the cases reach.
    if (process.env.FUZZ_REPORT)
      console.log(
        `${answer.ms} ms ${answer.kind === 'answer' ? answer.text.slice(0, 160) : answer.kind}\n  ${describeRequest(request, label)}`,
      )
    for (const problem of checkRpcAnswer(answer))
      failures.push(`case ${index} ${problem}\n    ${describeRequest(request, label)}`)
  }
  return failures
}

/** The bundler's configuration before the fuzz: restored after each method (one may slow the bundler down). */
const configuration = await (async () => {
  const res = await sendFuzzRequest(
    service.baseUrl,
    {
      method: 'POST',
      path: ENDPOINTS[0]!.path(),
      headers: JSON_HEADERS,
      body: JSON.stringify(call('debug_bundler_setConfiguration', [{}])),
    },
    REQUEST_TIMEOUT_MS,
  )
  return res.kind === 'answer' ? (JSON.parse(res.text).result as Record<string, unknown>) : {}
})()

/** Normal calls the service must still answer after a method's fuzz; the bundler gets its configuration back. */
async function expectServiceServes(after: string) {
  expect(chainExits.take(), `the chain exited while fuzzing ${after}`).toEqual([])
  const rpc = async (path: string, method: string, params: unknown[]) => {
    const answer = await sendFuzzRequest(
      service.baseUrl,
      { method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify(call(method, params)) },
      REQUEST_TIMEOUT_MS,
    )
    return answer.kind === 'answer' ? { status: answer.status, body: JSON.parse(answer.text) } : answer
  }
  const chainId = numberToHex(chain.chainId)
  const restored = await rpc(ENDPOINTS[0]!.path(), 'debug_bundler_setConfiguration', [configuration])
  expect(restored, `the bundler configuration restored after ${after}`).toMatchObject({ status: 200 })
  for (const endpoint of ENDPOINTS) {
    const answer = await rpc(endpoint.path(), 'eth_chainId', [])
    expect(answer, `eth_chainId at the ${endpoint.name} endpoint after ${after}`).toMatchObject({
      status: 200,
      body: { result: chainId },
    })
  }
}

describe(`JSON-RPC methods answer hostile input with a JSON-RPC error, never an internal one (seed ${SEED})`, () => {
  it('the JSON-RPC routes come from the server and every registry has its methods', () => {
    const served = new Set(routes.filter((r) => r.method === 'POST').map((r) => r.url))
    for (const endpoint of ENDPOINTS) expect(served).toContain(endpoint.route)
    expect(ENDPOINTS[0]!.methods).toContain('eth_sendUserOperation')
    expect(ENDPOINTS[1]!.methods).toContain('pm_sponsorUserOperation')
  })

  for (const endpoint of ENDPOINTS) {
    describe(`the ${endpoint.name} endpoint (${endpoint.route})`, () => {
      it('hostile envelopes, batches, transports, headers and path segments', {
        timeout: 180_000,
      }, async () => {
        const seed = seedFor(SEED, `${endpoint.name} envelope`)
        const cases = endpointCases(endpoint, createRandom(seed))
        const failures = await runCases(cases)
        expect(failures, `${endpoint.name}: seed ${SEED} (case seed ${seed}), ${cases.length} cases`).toEqual(
          [],
        )
        await expectServiceServes(`the ${endpoint.name} envelope cases`)
      })

      for (const method of endpoint.methods) {
        it(method, { timeout: 180_000 }, async () => {
          const seed = seedFor(SEED, `${endpoint.name} ${method}`)
          const cases = methodCases(endpoint, method, createRandom(seed))
          const failures = await runCases(cases)
          expect(failures, `${method}: seed ${SEED} (method seed ${seed}), ${cases.length} cases`).toEqual([])
          await expectServiceServes(method)
        })
      }
    })
  }
})
