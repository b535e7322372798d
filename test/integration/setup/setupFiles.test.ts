import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { getAddress, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOpstation } from '../../../src/main/api'
import type { SetupFileInput } from '../../../src/main/service/setup/setupFileSchema'
import { makeTempDir } from '../../helpers/makeTempDir'
import { runCliToExit, spawnCli } from '../../helpers/spawnCli'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'

const API_KEY = 'Shop1234x.0f3c1d2e-4b5a-4c6d-8e7f-9a0b1c2d3e4f'
const COUNTER = getAddress('0x00000000000000000000000000000000000c0ffe')
const FUNDED = getAddress('0x000000000000000000000000000000000000f00d')
const NATIVE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'
const COUNTER_ABI = [
  { type: 'function', name: 'increment', inputs: [], outputs: [], stateMutability: 'nonpayable' },
  { type: 'function', name: 'reset', inputs: [], outputs: [], stateMutability: 'nonpayable' },
]

/** Every kind of entry a setup holds; the v0.6 tank goes down from its default 10 ETH, the v0.7 one up. */
const FULL_SETUP = {
  version: 1,
  dapps: [
    {
      name: 'shop',
      apiKey: API_KEY,
      contracts: [{ name: 'Counter', address: COUNTER, abi: COUNTER_ABI, whitelistedMethods: ['increment'] }],
      webhooks: [{ webhookUrl: 'http://127.0.0.1:9/sponsor', requestType: 'POST' }],
      policies: {
        limits: [
          {
            type: 'SMART_ACCOUNT',
            thresholdType: 'COUNT',
            threshold: '5',
            cycleDuration: { value: 1, unit: 'day' },
          },
        ],
        validUntil: 4_102_444_800,
        premiumPercentage: 7,
      },
      gasTanksEth: { '0.6': '3', '0.7': '12.5' },
    },
  ],
  tokenPrices: [{ tokenAddress: NATIVE, usdPrice: '2500' }],
  accounts: [{ address: FUNDED, balanceEth: '42.5' }],
} satisfies SetupFileInput

const auth = (service: TestService, apiKey?: string) => ({
  authToken: service.authToken(),
  ...(apiKey ? { apiKey } : {}),
})

/** What the chain holds that a setup sets: the funded account, the dApp's tanks, and the block height. */
async function readChainState(service: TestService) {
  const client = service.chain!.publicClient
  const tank = await requestJson(`${service.baseUrl}/console/api/dapps/${API_KEY}/gas-tank`, {
    headers: auth(service),
  })
  return {
    blockNumber: await client.getBlockNumber({ cacheTime: 0 }),
    funded: await client.getBalance({ address: FUNDED }),
    tanks: tank.body.data.tanks.map((t: { entryPointVersion: string; balanceWei: string }) => [
      t.entryPointVersion,
      t.balanceWei,
    ]),
  }
}

function putSetup(service: TestService, setup: unknown) {
  return requestJson(`${service.baseUrl}/console/api/setup`, {
    method: 'PUT',
    headers: auth(service),
    body: setup,
  })
}

async function getSetup(service: TestService) {
  const res = await requestJson(`${service.baseUrl}/console/api/setup`, { headers: auth(service) })
  expect(res.status).toBe(200)
  return res.body.data
}

describe('setup files (a real service and chain)', () => {
  let service: TestService
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'opstation-setup-'))
    service = await startTestService({ dataDir, setup: FULL_SETUP })
  })
  afterAll(async () => {
    await service?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('applies a full setup at start: the dApp with its fixed apiKey, contract, webhook, policies, gas tanks, token price and funded account', async () => {
    const list = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: auth(service),
    })
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'shop', apiKey: API_KEY, active: true })])

    const contracts = await requestJson(`${service.baseUrl}/api/v2/public/sdk/smart-contract`, {
      headers: auth(service, API_KEY),
    })
    expect(contracts.body.data).toEqual([
      expect.objectContaining({ name: 'Counter', address: COUNTER, whitelistedMethods: ['increment'] }),
    ])
    const webhooks = await requestJson(`${service.baseUrl}/api/v2/public/sdk/webhook`, {
      headers: auth(service, API_KEY),
    })
    expect(webhooks.body.data).toEqual([
      expect.objectContaining({
        webhookUrl: 'http://127.0.0.1:9/sponsor',
        requestType: 'POST',
        active: true,
      }),
    ])
    const policies = await requestJson(`${service.baseUrl}/console/api/dapps/${API_KEY}/policies`, {
      headers: auth(service),
    })
    expect(policies.body.data).toMatchObject({
      limits: [{ type: 'SMART_ACCOUNT', thresholdType: 'COUNT', threshold: '5', active: true }],
      validAfter: null,
      validUntil: 4_102_444_800,
      premiumPercentage: 7,
    })
    const prices = await requestJson(`${service.baseUrl}/console/api/token-prices`, {
      headers: auth(service),
    })
    expect(prices.body.data.native.usdPrice).toBe('2500')

    const chain = await readChainState(service)
    expect(chain.funded).toBe(parseEther('42.5'))
    expect(Object.fromEntries(chain.tanks)).toEqual({
      '0.6': parseEther('3').toString(),
      '0.7': parseEther('12.5').toString(),
      '0.8': parseEther('10').toString(),
      '0.9': parseEther('10').toString(),
    })
    // The paymaster URL of the fixed apiKey answers.
    const rpc = await requestJson(service.info().paymasterUrlTemplate.replace('{apiKey}', API_KEY), {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 1, method: 'pm_supportedEntryPoints', params: [] },
    })
    expect(rpc.body.result).toHaveLength(4)
  })

  it('applying the same setup again changes nothing: no change reported, the store file bytes and the chain as they were', async () => {
    const storeBefore = await readFile(service.store.path)
    const mtimeBefore = (await stat(service.store.path)).mtimeMs
    const chainBefore = await readChainState(service)

    const res = await putSetup(service, FULL_SETUP)
    expect(res.body).toEqual({
      statusCode: 200,
      message: 'Setup already applied: nothing changed',
      data: { changes: [], warnings: [] },
    })
    expect((await readFile(service.store.path)).equals(storeBefore)).toBe(true)
    expect((await stat(service.store.path)).mtimeMs).toBe(mtimeBefore)
    expect(await readChainState(service)).toEqual(chainBefore)
  })

  it('a change in the file changes only that: the tank is set back, the whitelist and a new webhook follow; other dApps are left alone', async () => {
    const other = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers: auth(service),
      body: { name: 'other', type: 'HYBRID', chainId: 31337, version: '1.1.0' },
    })
    expect(other.status).toBe(200)
    const changed = structuredClone(FULL_SETUP) as any
    changed.dapps[0].contracts[0].whitelistedMethods = ['increment', 'reset']
    changed.dapps[0].webhooks.push({
      webhookUrl: 'http://127.0.0.1:9/second',
      requestType: 'GET',
      active: false,
    })
    changed.dapps[0].gasTanksEth = { '0.6': '4' }
    const res = await putSetup(service, changed)
    expect(res.body.data.changes).toEqual([
      `dApp "shop": contract Counter (${COUNTER}) whitelisted methods set to increment, reset`,
      'dApp "shop": webhook http://127.0.0.1:9/second registered (GET, inactive)',
      'dApp "shop": gas tank v0.6 3 → 4 ETH',
    ])
    expect((await putSetup(service, changed)).body.data.changes).toEqual([])
    const list = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: auth(service),
    })
    expect(list.body.data.map((d: { name: string }) => d.name)).toEqual(['shop', 'other'])
    // Back to the file of the start, for the tests after this one.
    await putSetup(service, {
      ...FULL_SETUP,
      dapps: [{ ...FULL_SETUP.dapps[0], gasTanksEth: { '0.6': '3' } }],
    })
  })

  it('refuses an apiKey of another dApp and a bad file with a 400 naming the field, and changes nothing', async () => {
    const otherKey = (
      await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, { headers: auth(service) })
    ).body.data.find((d: { name: string }) => d.name === 'other').apiKey
    const before = await readFile(service.store.path)
    const taken = await putSetup(service, {
      version: 1,
      dapps: [{ name: 'third' }, { name: 'shop', apiKey: otherKey }],
    })
    expect(taken.body).toEqual({
      statusCode: 400,
      message: 'setup: dapps[1].apiKey is already the apiKey of the dApp "other"',
    })
    const bad = await putSetup(service, {
      version: 1,
      dapps: [
        {
          name: 'x',
          contracts: [
            { name: 'C', address: COUNTER, abi: [] },
            { name: 'D', address: '0x1', abi: [] },
          ],
        },
      ],
    })
    expect(bad.body).toEqual({
      statusCode: 400,
      message: 'setup: dapps[0].contracts[1].address must be a 0x address (0x followed by 40 hex digits)',
    })
    expect((await readFile(service.store.path)).equals(before)).toBe(true)
    const anonymous = await requestJson(`${service.baseUrl}/console/api/setup`, {
      method: 'PUT',
      body: FULL_SETUP,
    })
    expect(anonymous.status).toBe(401)
  })

  it('an apiKey given for an existing dApp replaces its key: the new paymaster URL answers, the old one no longer does', async () => {
    const listed = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      headers: auth(service),
    })
    const oldKey: string = listed.body.data.find((d: { name: string }) => d.name === 'other').apiKey
    const newKey = 'OtherDapp.5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'
    const res = await putSetup(service, { version: 1, dapps: [{ name: 'other', apiKey: newKey }] })
    expect(res.body.data.changes).toEqual(['dApp "other": apiKey replaced (the old one no longer works)'])
    const call = (apiKey: string) =>
      requestJson(service.info().paymasterUrlTemplate.replace('{apiKey}', apiKey), {
        method: 'POST',
        body: { jsonrpc: '2.0', id: 1, method: 'pm_supportedEntryPoints', params: [] },
      })
    expect((await call(newKey)).body.result).toHaveLength(4)
    expect((await call(oldKey)).body.error.message).toContain(`Unknown paymaster apiKey "${oldKey}"`)
  })

  it('started again on its data folder with the same setup, nothing changes and the same apiKey works', async () => {
    const exported = await getSetup(service)
    await service.close()
    service = await startTestService({ dataDir, setup: FULL_SETUP })
    expect(await getSetup(service)).toEqual(exported)
    const rpc = await requestJson(service.info().paymasterUrlTemplate.replace('{apiKey}', API_KEY), {
      method: 'POST',
      body: { jsonrpc: '2.0', id: 1, method: 'pm_supportedEntryPoints', params: [] },
    })
    expect(rpc.body.result).toHaveLength(4)
  })

  it('export → apply to a fresh instance → export again gives the same file', async () => {
    const exported = await getSetup(service)
    expect(exported).toMatchObject({
      version: 1,
      dapps: [
        {
          name: 'shop',
          apiKey: API_KEY,
          active: true,
          contracts: [
            { name: 'Counter', address: COUNTER, abi: COUNTER_ABI, whitelistedMethods: ['increment'] },
          ],
          gasTanksEth: { '0.6': '3', '0.7': '12.5', '0.8': '10', '0.9': '10' },
        },
        { name: 'other' },
      ],
      tokenPrices: [{ tokenAddress: NATIVE, usdPrice: '2500', logoUrl: null }],
      accounts: [{ address: FUNDED, balanceEth: '42.5' }],
    })
    const fresh = await startTestService({ setup: exported })
    try {
      expect(await getSetup(fresh)).toEqual(exported)
    } finally {
      await fresh.dispose()
    }
  })
})

describe('setup files at start', () => {
  it('startOpstation with a setup that does not read throws, naming the field, before anything starts', async () => {
    const dataDir = await makeTempDir('opstation-setup-api-')
    await expect(
      startOpstation({ dataDir, setup: { version: 1, dapps: [{ name: 'shop', apiKey: 'fixed' }] } }),
    ).rejects.toThrow('setup: dapps[0].apiKey must look like a generated apiKey')
    await expect(stat(path.join(dataDir, 'opstation.json'))).rejects.toThrow()
  })

  it('opstation serve --setup with a bad file gives a one-line error naming the file and the field, and exit code 2', async () => {
    const dir = await makeTempDir('opstation-setup-cli-')
    const file = path.join(dir, 'setup.json')
    await writeFile(
      file,
      JSON.stringify({ version: 1, dapps: [{ name: 'shop', contracts: [{ name: 'C', abi: [] }] }] }),
    )
    const res = await runCliToExit(['serve', '--port', '0', '--data-dir', dir, '--no-chain', '--setup', file])
    expect(res.code).toBe(2)
    expect(res.stderr.trim().split('\n')).toEqual([
      `opstation: ${file}: dapps[0].contracts[0].address is required`,
    ])
    const missing = await runCliToExit(['serve', '--port', '0', '--data-dir', dir, '--setup', `${file}.nope`])
    expect(missing.code).toBe(2)
    expect(missing.stderr.trim()).toBe(`opstation: ${file}.nope cannot be read (no such file)`)
  })

  it('opstation serve --setup applies the file before the ready line', async () => {
    const dir = await makeTempDir('opstation-setup-cli-')
    const file = path.join(dir, 'setup.json')
    await writeFile(file, JSON.stringify({ version: 1, dapps: [{ name: 'shop', apiKey: API_KEY }] }))
    const cli = await spawnCli([
      '--port',
      '0',
      '--data-dir',
      path.join(dir, 'data'),
      '--no-chain',
      '--setup',
      file,
    ])
    try {
      const list = await requestJson(`${cli.ready.dashboardUrl}/api/v2/public/sdk/paymaster`, {
        headers: { authToken: cli.ready.authToken },
      })
      expect(list.body.data).toEqual([expect.objectContaining({ name: 'shop', apiKey: API_KEY })])
    } finally {
      cli.child.kill('SIGTERM')
      await cli.exited
    }
  })
})
