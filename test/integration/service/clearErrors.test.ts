import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Address, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NATIVE_TOKEN_ADDRESS } from '../../../src/main/service/paymaster/tokenPrices'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createDapp,
  sponsoredContext,
  tokenBalance,
} from '../paymaster/paymasterTestKit'

/** Bad input and concurrency on the real service over HTTP: every answer is a 4xx with a clear message, never a 500. */
let service: TestService
let webhookServer: Server
let webhookUrl = ''
const ABOVE_UINT256 = `0x1${'0'.repeat(64)}`

beforeAll(async () => {
  webhookServer = createServer((req, res) => {
    req.resume()
    req.on('end', () =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"arePoliciesVerified":true}'),
    )
  })
  webhookServer.listen(0, '127.0.0.1')
  await once(webhookServer, 'listening')
  webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/approve`
  service = await startTestService()
})
afterAll(async () => {
  webhookServer?.closeAllConnections()
  webhookServer?.close()
  await service?.dispose()
})

const rawPaymasterCall = (apiKey: string, body: string) =>
  requestJson(service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    rawBody: body,
  })

const callBundler = (method: string, params: unknown[]) =>
  requestJson(service.info().bundlerUrl, {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: { jsonrpc: '2.0', id: 1, method, params },
  })

async function createSandboxAccount(type: string): Promise<Address> {
  const created = await callConsole(service, '/console/api/sandbox/accounts', {
    method: 'POST',
    body: { type },
  })
  expect(created.status).toBe(200)
  return created.body.data.address
}

describe("the executor's transactions share one nonce manager", () => {
  it('16 concurrent faucet calls, gas-tank deposits and dApp creations all succeed, and every one counts', async () => {
    const [tUsdc, tDai] = service.chain!.addresses.tokens
    const someone = randomAddress()
    const { apiKey } = await createDapp(service)
    const faucet = (asset: string, amount: string) =>
      callConsole(service, '/console/api/sandbox/faucet', {
        method: 'POST',
        body: { address: someone, asset, amount },
      })
    const calls = [
      ...Array.from({ length: 6 }, () => faucet(tUsdc!.address, '1')),
      ...Array.from({ length: 6 }, () => faucet('tDAI', '2')),
      ...Array.from({ length: 4 }, () => faucet('ETH', '0.5')),
      ...Array.from({ length: 2 }, () =>
        callConsole(service, `/console/api/dapps/${apiKey}/gas-tank`, {
          method: 'POST',
          body: { action: 'deposit', amountWei: parseEther('1').toString(), entryPointVersion: '0.7' },
        }),
      ),
      ...Array.from({ length: 2 }, (_, i) =>
        requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
          method: 'POST',
          headers: { authToken: service.authToken() },
          body: {
            name: `concurrent-${i}-${Date.now()}`,
            type: 'HYBRID',
            chainId: service.chain!.chainId,
            version: '1.1.0',
          },
        }),
      ),
    ]
    const answers = await Promise.all(calls)
    expect(answers.map((a) => [a.status, a.body.message])).toEqual(answers.map((a) => [200, a.body.message]))
    expect(await tokenBalance(service, tUsdc!.address, someone)).toBe(6_000_000n)
    expect(await tokenBalance(service, tDai!.address, someone)).toBe(12n * 10n ** 18n)
    expect(await service.chain!.publicClient.getBalance({ address: someone })).toBe(parseEther('2'))
    // The executor's nonces have no gap: its pending and mined counts agree.
    const executor = service.chain!.executor.address
    const [pending, latest] = await Promise.all([
      service.chain!.publicClient.getTransactionCount({ address: executor, blockTag: 'pending' }),
      service.chain!.publicClient.getTransactionCount({ address: executor, blockTag: 'latest' }),
    ])
    expect(pending).toBe(latest)
  })
})

describe('quantities above uint256 answer 400 with the field named', () => {
  it('on the paymaster methods (nonce, fees, gas limits)', async () => {
    const { apiKey } = await createDapp(service)
    const op = await buildSponsorRequestOp(service)
    for (const field of ['nonce', 'maxFeePerGas', 'maxPriorityFeePerGas', 'callGasLimit']) {
      const sponsored = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
        { ...op, [field]: ABOVE_UINT256 },
        sponsoredContext(),
      ])
      expect([sponsored.status, sponsored.body.error]).toEqual([
        400,
        { code: -32602, message: `Invalid params: params[0].${field}: value does not fit in uint256` },
      ])
      const quoted = await callPaymaster(service, apiKey, 'pm_getFeeQuoteOrData', [
        { ...op, [field]: (2n ** 256n).toString() },
        { mode: 'ERC20', tokenInfo: {} },
      ])
      expect(quoted.status).toBe(400)
      expect(quoted.body.error.message).toBe(
        `Invalid params: params[0].${field}: value does not fit in uint256`,
      )
    }
  })

  it('on the sandbox sign and build routes', async () => {
    const address = await createSandboxAccount('SMART_ACCOUNT_V2')
    const built = await callConsole(service, `/console/api/sandbox/accounts/${address}/user-operation`, {
      method: 'POST',
      body: { calls: [{ to: address }] },
    })
    expect(built.status).toBe(200)
    const signed = await callConsole(service, `/console/api/sandbox/accounts/${address}/sign`, {
      method: 'POST',
      body: { userOperation: { ...built.body.data.userOperation, nonce: ABOVE_UINT256 } },
    })
    expect(signed.body).toEqual({
      statusCode: 400,
      message: 'userOperation.nonce: value does not fit in uint256',
    })
    const call = await callConsole(service, `/console/api/sandbox/accounts/${address}/user-operation`, {
      method: 'POST',
      body: { calls: [{ to: address, value: (2n ** 256n).toString() }] },
    })
    expect(call.body).toEqual({ statusCode: 400, message: 'value must be at most 2^256 - 1 (a uint256)' })
  })

  it('on the gas-tank and faucet routes', async () => {
    const { apiKey } = await createDapp(service)
    const deposit = await callConsole(service, `/console/api/dapps/${apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'deposit', amountWei: (2n ** 256n).toString() },
    })
    expect(deposit.body).toEqual({
      statusCode: 400,
      message: 'amountWei must be at most 2^256 - 1 (a uint256)',
    })
    const withdraw = await callConsole(service, `/console/api/dapps/${apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'withdraw', amountWei: ABOVE_UINT256 },
    })
    expect(withdraw.body).toEqual({
      statusCode: 400,
      message: 'amountWei must be at most 2^256 - 1 (a uint256)',
    })
    // Within uint256, but more than an EntryPoint deposit holds.
    const huge = await callConsole(service, `/console/api/dapps/${apiKey}/gas-tank`, {
      method: 'POST',
      body: { action: 'deposit', amountWei: (2n ** 200n).toString() },
    })
    expect(huge.status).toBe(400)
    expect(huge.body.message).toMatch(/would pass 2\^112 - 1 wei/)
    for (const amount of [`1${'0'.repeat(70)}`, '1000000001']) {
      const minted = await callConsole(service, '/console/api/sandbox/faucet', {
        method: 'POST',
        body: { address: randomAddress(), asset: 'tUSDC', amount },
      })
      expect(minted.status).toBe(400)
      expect(minted.body.message).toMatch(/^amount must be/)
    }
  })
})

describe('client JSON the service re-serialises is bounded', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`

  it('webhookData nested 10,000 deep or over 64 KiB answers -32602; ordinary webhookData still reaches the webhook', async () => {
    const { apiKey } = await createDapp(service)
    const registered = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, {
      method: 'POST',
      headers: { authToken: service.authToken(), apiKey },
      body: { webhookUrl, requestType: 'POST' },
    })
    expect(registered.status).toBe(200)
    const op = JSON.stringify(await buildSponsorRequestOp(service))
    const sponsorWith = (webhookData: string) =>
      rawPaymasterCall(
        apiKey,
        `{"jsonrpc":"2.0","id":1,"method":"pm_sponsorUserOperation","params":[${op},{"mode":"SPONSORED","sponsorshipInfo":{"webhookData":${webhookData}}}]}`,
      )
    const deep = await sponsorWith(nested(10_000))
    expect([deep.status, deep.body.error]).toEqual([
      400,
      {
        code: -32602,
        message:
          'Invalid params: params[1].sponsorshipInfo.webhookData: webhookData must be nested at most 32 levels deep',
      },
    ])
    const large = await sponsorWith(JSON.stringify({ blob: 'x'.repeat(100_000) }))
    expect(large.body.error.message).toBe(
      'Invalid params: params[1].sponsorshipInfo.webhookData: webhookData must be at most 64 KiB as JSON',
    )
    const ordinary = await sponsorWith(JSON.stringify({ userId: 'u-1', plan: { tier: 'gold' } }))
    expect(ordinary.status).toBe(200)
    expect(ordinary.body.result.paymasterAndData).not.toBe('0x')

    // The console's webhook test call takes the same bound.
    const webhookId = registered.body.data.webhookId
    const tested = await requestJson(
      `${service.baseUrl}/console/api/dapps/${apiKey}/webhooks/${webhookId}/test`,
      {
        method: 'POST',
        headers: { authToken: service.authToken(), 'content-type': 'application/json' },
        rawBody: `{"webhookData":${nested(10_000)}}`,
      },
    )
    expect(tested.body).toEqual({
      statusCode: 400,
      message: 'webhookData must be nested at most 32 levels deep',
    })
  })
})

describe('eth_estimateUserOperationGas state overrides are validated', () => {
  const sender = '0x00000000000000000000000000000000000b0b0b'
  const estimateWith = async (stateOverride: unknown) => {
    const op = await buildSponsorRequestOp(service)
    const started = performance.now()
    const answer = await callBundler('eth_estimateUserOperationGas', [
      op,
      service.chain!.addresses.entryPoint,
      stateOverride,
    ])
    return { ...answer, ms: performance.now() - started }
  }

  it('answers -32602 at once for a malformed value, a lone UTF-16 surrogate, a short slot and odd bytecode', async () => {
    const cases: [unknown, string][] = [
      [
        { [sender]: { balance: 'zz' } },
        `${sender}.balance: expected a non-negative integer (0x-hex or decimal)`,
      ],
      // JSON.stringify writes the lone surrogate as the escape \udc00, as a client's JSON would carry it.
      [
        { [sender]: { balance: '0x1\udc00' } },
        `${sender}.balance: expected a non-negative integer (0x-hex or decimal)`,
      ],
      [{ [sender]: { code: '0x\udc00' } }, `${sender}.code: expected bytecode as 0x-prefixed hex bytes`],
      [{ [`${sender.slice(0, -1)}\udc00`]: { balance: '0x1' } }, 'state override keys must be addresses'],
      [
        { [sender]: { stateDiff: { '0x01': '0x02' } } },
        `${sender}.stateDiff.0x01: storage slot "0x01": expected a 32-byte hex value`,
      ],
      [{ [sender]: { code: '0x600' } }, `${sender}.code: expected bytecode as 0x-prefixed hex bytes`],
      [{ [sender]: { nonce: `0x1${'0'.repeat(16)}` } }, `${sender}.nonce: value does not fit in uint64`],
    ]
    for (const [stateOverride, message] of cases) {
      const answer = await estimateWith(stateOverride)
      expect(answer.status).toBe(400)
      expect(answer.body.error.code).toBe(-32602)
      expect(answer.body.error.message).toContain(`Invalid params: params[2]`)
      expect(answer.body.error.message).toContain(message)
      expect(answer.ms).toBeLessThan(5_000)
    }
  })

  it('passes valid overrides on to the estimate', async () => {
    const answer = await estimateWith({
      [sender]: {
        balance: '0x56bc75e2d63100000',
        stateDiff: { [`0x${'0'.repeat(64)}`]: `0x${'0'.repeat(63)}1` },
      },
    })
    expect(answer.status).toBe(200)
    expect(answer.body.result.callGasLimit).toBeGreaterThan(0)
  })
})

describe('token prices stay in a range every quote can use', () => {
  const setPrice = (tokenAddress: string, usdPrice: unknown) =>
    callConsole(service, '/console/api/token-prices', { method: 'PUT', body: { tokenAddress, usdPrice } })
  const quote = async (apiKey: string) =>
    callPaymaster(service, apiKey, 'pm_getFeeQuoteOrData', [
      await buildSponsorRequestOp(service),
      { mode: 'ERC20', tokenInfo: {} },
    ])

  it('refuses a price below 1e-18, one of 400 digits, and one that leaves a token without an exchange rate', async () => {
    const [tUsdc] = service.chain!.addresses.tokens
    const tiny = await setPrice(tUsdc!.address, '0.0000000000000000001')
    expect(tiny.status).toBe(400)
    expect(tiny.body.message).toMatch(/^usdPrice must be/)
    const huge = await setPrice(tUsdc!.address, `1${'0'.repeat(400)}`)
    expect(huge.status).toBe(400)
    expect(huge.body.message).toMatch(/^usdPrice must be/)
    const outOfRange = await setPrice(tUsdc!.address, '0.0000000001')
    expect(outOfRange.body).toEqual({
      statusCode: 400,
      message: 'usdPrice must be between 0.000000001 and 1000000000000 USD',
    })
    const unquotable = await setPrice(NATIVE_TOKEN_ADDRESS, '0.000000001')
    expect(unquotable.status).toBe(400)
    expect(unquotable.body.message).toMatch(/leaves tUSDC without an exchange rate/)
    const { apiKey } = await createDapp(service)
    const quoted = await quote(apiKey)
    expect(quoted.status).toBe(200)
    for (const feeQuote of quoted.body.result.feeQuotes) expect(feeQuote.exchangeRate).toBeGreaterThan(0)
  })

  it('quotes on when the store holds a bad price from an older version (the default price holds)', async () => {
    const [tUsdc, tDai] = service.chain!.addresses.tokens
    await service.store.update((doc) => {
      doc.tokenPrices = [
        {
          tokenAddress: tUsdc!.address,
          usdPrice: '0.0000000000000000001',
          logoUrl: null,
          updatedAt: new Date().toISOString(),
        },
        {
          tokenAddress: tDai!.address,
          usdPrice: `1${'0'.repeat(400)}`,
          logoUrl: null,
          updatedAt: new Date().toISOString(),
        },
      ]
    })
    try {
      const { apiKey } = await createDapp(service)
      const quoted = await quote(apiKey)
      expect(quoted.status).toBe(200)
      expect(
        quoted.body.result.feeQuotes.map((q: { symbol: string; exchangeRate: number }) => [
          q.symbol,
          q.exchangeRate,
        ]),
      ).toEqual([
        ['tUSDC', 2_000_000_000],
        ['tDAI', 2000e18],
      ])
      const sponsored = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
        await buildSponsorRequestOp(service),
        { mode: 'ERC20', tokenInfo: { feeTokenAddress: tUsdc!.address } },
      ])
      expect(sponsored.status).toBe(200)
      expect(sponsored.body.result.paymasterAndData).not.toBe('0x')
    } finally {
      await service.store.update((doc) => {
        doc.tokenPrices = []
      })
    }
  })
})
