import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { SandboxAccount } from '../../../src/shared/sandbox'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress, waitFor } from '../bundler/bundlerTestKit'

type Operation = { responses: Record<string, { content?: Record<string, { schema: object }> }> }
type OpenApi = { paths: Record<string, Record<string, Operation>> }
type OpenRpc = { methods: { name: string; tags: { name: string }[]; result: { schema: object } }[] }

/** Operations this test does not call, and why. */
const NOT_CALLED = new Set([
  'GET /console/api/events', // a stream, not a JSON answer (console/eventStream.test.ts)
  'POST /console/api/login', // the same answer as GET /console/api/session
  'POST /rpc', // the node's own answers
  'POST /rpc/{chainId}',
  'POST /api/v1/{chainId}/{paymasterApiKey}', // JSON-RPC: its results are checked against the OpenRPC document
  'POST /api/v2/{chainId}/{bundlerKey}',
  'GET /docs/', // HTML (apiDocuments.test.ts)
  'GET /console/api/setup', // the setup file's own tests
  'PUT /console/api/setup',
])

/**
 * Every documented answer, checked against real answers of a service with a chain: each REST and console route
 * the test calls, and each JSON-RPC result, must parse with the schema the published documents give for it (read
 * back into zod from their JSON Schema, so extra or missing fields fail).
 */
describe('documented answers', () => {
  let service: TestService
  let openapi: OpenApi
  let openrpc: OpenRpc
  let headers: Record<string, string>
  /** `METHOD /path/{template}` of each REST answer checked. */
  const checked = new Set<string>()
  /** JSON-RPC methods whose result was checked. */
  const checkedMethods = new Set<string>()

  beforeAll(async () => {
    service = await startTestService()
    headers = { authToken: service.authToken() }
    openapi = (await (await fetch(`${service.baseUrl}/docs/openapi.json`)).json()) as OpenApi
    openrpc = (await (await fetch(`${service.baseUrl}/docs/openrpc.json`)).json()) as OpenRpc
  })
  afterAll(async () => service?.dispose())

  /** The documented path a concrete path matches. */
  function findTemplate(path: string): string {
    const template = Object.keys(openapi.paths).find((t) =>
      new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    )
    expect(template, `${path} is documented`).toBeDefined()
    return template!
  }

  /** A REST call whose 200 answer must fit its documented schema; returns `data` (or the whole answer). */
  async function call(method: string, path: string, body?: unknown): Promise<any> {
    const res = await requestJson(`${service.baseUrl}${path}`, { method, headers, body })
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200)
    const template = findTemplate(path.split('?')[0]!)
    const schema =
      openapi.paths[template]?.[method.toLowerCase()]?.responses['200']?.content?.['application/json']
    expect(schema, `${method} ${template} documents a JSON answer`).toBeDefined()
    const parsed = z.fromJSONSchema(schema!.schema as never).safeParse(res.body)
    expect(
      parsed.error,
      `${method} ${path} answered ${JSON.stringify(res.body).slice(0, 2000)}`,
    ).toBeUndefined()
    checked.add(`${method} ${template}`)
    return res.body.data ?? res.body
  }

  /** A JSON-RPC call whose result must fit the OpenRPC document. */
  async function rpc(url: string, method: string, params: unknown[]): Promise<any> {
    const res = await requestJson(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method, params } })
    expect(res.body.error, `${method}: ${JSON.stringify(res.body.error)}`).toBeUndefined()
    const documented = openrpc.methods.find((m) => m.name === method)
    expect(documented, `${method} is documented`).toBeDefined()
    const parsed = z.fromJSONSchema(documented!.result.schema as never).safeParse(res.body.result)
    expect(
      parsed.error,
      `${method} answered ${JSON.stringify(res.body.result).slice(0, 2000)}`,
    ).toBeUndefined()
    checkedMethods.add(method)
    return res.body.result
  }
  const bundler = (method: string, params: unknown[] = []) => rpc(service.info().bundlerUrl, method, params)
  const paymaster = (apiKey: string, method: string, params: unknown[] = []) =>
    rpc(service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey), method, params)

  it('REST, console and JSON-RPC answers fit the published documents', async () => {
    const chainId = service.chain!.chainId
    const token = service.chain!.addresses.tokens[0]!.address

    // The dashboard REST API and the console's sign-in.
    const { apiKey } = await call('POST', '/api/v2/public/sdk/paymaster', {
      name: 'documented',
      type: 'HYBRID',
      chainId,
      version: '1.1.0',
    })
    await call('GET', '/api/v2/public/sdk/paymaster')
    await call('GET', '/console/api/session')
    await call('GET', '/console/api/status')
    await call('GET', '/health')
    await call('GET', '/docs/openapi.json')
    await call('GET', '/docs/openrpc.json')

    // Operations of a v0.6 and a v0.7 sandbox account through both JSON-RPC endpoints: sponsor, sign, send, read.
    for (const type of ['SIMPLE_ACCOUNT', 'SIMPLE_ACCOUNT_V07'] as const) {
      const account: SandboxAccount = await call('POST', '/console/api/sandbox/accounts', { type })
      await call('POST', '/console/api/sandbox/faucet', {
        address: account.address,
        asset: 'ETH',
        amount: '1',
      })
      const built = await call('POST', `/console/api/sandbox/accounts/${account.address}/user-operation`, {
        calls: [{ to: randomAddress(), value: '1' }],
      })
      await bundler('eth_estimateUserOperationGas', [built.userOperation, built.entryPoint])
      const {
        mode: _m,
        MODE: _M,
        ...sponsored
      } = await paymaster(apiKey, 'pm_sponsorUserOperation', [
        built.userOperation,
        { mode: 'SPONSORED', entryPoint: built.entryPoint },
      ])
      const signed = await call('POST', `/console/api/sandbox/accounts/${account.address}/sign`, {
        userOperation: { ...built.userOperation, ...sponsored },
      })
      // The Biconomy SDK's third param asks for the receipt of spec 2.4 (v0.6 here); v0.7 gets ERC-4337's.
      const biconomy = type === 'SIMPLE_ACCOUNT' ? [{ simulation_type: 'validation' }] : []
      await bundler('opstation_simulateUserOperation', [signed.userOperation, built.entryPoint])
      const hash = await bundler('eth_sendUserOperation', [
        signed.userOperation,
        built.entryPoint,
        ...biconomy,
      ])
      await waitFor(() => bundler('eth_getUserOperationReceipt', [hash]))
      await bundler('eth_getUserOperationByHash', [hash])
      await bundler('biconomy_getUserOperationStatus', [hash])
      await bundler('opstation_traceUserOperation', [hash])
      await call('GET', `/console/api/user-operations/${hash}`)
      // ERC-7677 on the same kind of operation (v0.7: its chain id as 0x-hex).
      if (type === 'SIMPLE_ACCOUNT_V07') {
        const again = await call('POST', `/console/api/sandbox/accounts/${account.address}/user-operation`, {
          calls: [{ to: randomAddress() }],
        })
        const erc7677 = [
          again.userOperation,
          again.entryPoint,
          `0x${chainId.toString(16)}`,
          { mode: 'SPONSORED' },
        ]
        await paymaster(apiKey, 'pm_getPaymasterStubData', erc7677)
        await paymaster(apiKey, 'pm_getPaymasterData', erc7677)
        await paymaster(apiKey, 'pm_getFeeQuoteOrData', [
          again.userOperation,
          { mode: 'ERC20', entryPoint: again.entryPoint, tokenInfo: { tokenList: [token] } },
        ])
      }
    }
    await call('GET', '/console/api/sandbox/accounts')
    const [entryPoint] = await bundler('eth_supportedEntryPoints')
    await paymaster(apiKey, 'pm_supportedEntryPoints')
    await bundler('eth_chainId')
    await paymaster(apiKey, 'eth_chainId')
    await bundler('biconomy_getGasFeeValues')
    await bundler('pimlico_getUserOperationGasPrice')
    await paymaster(apiKey, 'zd_getUserOperationGasPrice')
    await bundler('thirdweb_getUserOperationGasPrice')
    await bundler('debug_bundler_dumpMempool', [entryPoint])
    await bundler('debug_bundler_dumpReputation', [entryPoint])
    await bundler('debug_bundler_getStakeStatus', [service.chain!.addresses.verifyingPaymaster, entryPoint])
    await bundler('debug_bundler_setConfiguration', [{}])
    await bundler('debug_bundler_sendBundleNow')
    await bundler('debug_bundler_setBundlingMode', ['auto'])
    await bundler('debug_bundler_setReputation', [[], entryPoint])
    await bundler('debug_bundler_clearReputation')
    await bundler('debug_bundler_clearMempool')
    await bundler('debug_bundler_clearState')
    await bundler('eth_blockNumber')

    // The console's views of what happened, and its settings.
    const { items: operations } = await call('GET', '/console/api/user-operations?limit=5')
    expect(operations.length).toBeGreaterThan(0)
    const { items: decisions } = await call('GET', `/console/api/sponsorship-decisions?apiKey=${apiKey}`)
    await call('GET', `/console/api/sponsorship-decisions/${decisions[0].id}`)
    await call('GET', '/console/api/sponsorships?limit=1')
    await call('GET', `/console/api/sponsorships/${decisions[0].id}`)
    await call('GET', `/console/api/dapps/${apiKey}/policies`)
    await call('PATCH', `/console/api/dapps/${apiKey}/policies`, { premiumPercentage: 10 })
    await call('GET', `/console/api/dapps/${apiKey}/gas-tank`)
    await call('POST', `/console/api/dapps/${apiKey}/gas-tank`, { action: 'deposit', amountWei: '1000' })
    const prices = await call('GET', '/console/api/token-prices')
    await call('PUT', '/console/api/token-prices', {
      tokenAddress: token,
      usdPrice: prices.tokens[0].usdPrice,
    })
    const settings = await call('GET', '/console/api/settings')
    await call('PATCH', '/console/api/settings', { webhookTimeoutMs: settings.saved.webhookTimeoutMs })

    // Contracts and webhooks (a webhook nobody answers: the test call is logged as failed).
    const abi = JSON.stringify([
      { type: 'function', name: 'f', inputs: [], outputs: [], stateMutability: 'nonpayable' },
    ])
    const address = randomAddress()
    const dapp = { ...headers, apiKey }
    const dappCall = async (method: string, path: string, body?: unknown) => {
      const saved = headers
      headers = dapp
      try {
        return await call(method, path, body)
      } finally {
        headers = saved
      }
    }
    await dappCall('POST', '/api/v2/public/sdk/smart-contract', { name: 'c', address, abi })
    await dappCall('GET', '/api/v2/public/sdk/smart-contract')
    await dappCall('PATCH', '/api/v2/public/sdk/smart-contract', { address, whitelistedMethods: ['f'] })
    await dappCall('DELETE', '/api/v2/public/sdk/smart-contract', { address })
    const webhook = await dappCall('POST', '/api/v2/public/sdk/webhook', {
      webhookUrl: 'http://127.0.0.1:9/webhook',
      requestType: 'POST',
    })
    await dappCall('GET', '/api/v2/public/sdk/webhook')
    await call('POST', `/console/api/dapps/${apiKey}/webhooks/${webhook.webhookId}/test`, {
      webhookData: { a: 1 },
    })
    await call('GET', `/console/api/dapps/${apiKey}/webhook-calls`)
    await dappCall('PATCH', '/api/v2/public/sdk/webhook', { webhookId: webhook.webhookId, active: false })
    await dappCall('DELETE', '/api/v2/public/sdk/webhook', { webhookId: webhook.webhookId })

    // Last, what changes the account and the dApp.
    await call('PATCH', `/console/api/dapps/${apiKey}`, { active: false })
    const { authToken } = await call('POST', '/console/api/account/auth-token')
    headers = { authToken }

    // The chain's time and the stack's snapshots (a reset last: it takes the activity back to the first start).
    await call('GET', '/console/api/time')
    const { snapshots } = await call('POST', '/console/api/time/snapshots', { name: 'documented' })
    await call('POST', '/console/api/time/advance', { seconds: 3600 })
    await call('POST', '/console/api/time/mine', { blocks: 2 })
    await call('POST', `/console/api/time/snapshots/${snapshots[0].id}/revert`)
    await call('POST', '/console/api/time/reset')

    // Every documented JSON answer was checked, but the few this test leaves to others.
    const documented = Object.entries(openapi.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.filter((o) => !checked.has(o) && !NOT_CALLED.has(o))).toEqual([])
    // The chain methods pass the node's answer on (one of them is called above).
    const unchecked = openrpc.methods.filter(
      (m) => !checkedMethods.has(m.name) && !m.tags.some((t) => t.name === 'chain'),
    )
    expect(unchecked.map((m) => m.name)).toEqual([])
  })
})
