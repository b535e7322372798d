import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxAccount } from '../../../src/shared/sandbox'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { chainOf, createDappOn, sendSponsoredMint } from './chainsTestKit'

/**
 * The console's routes in a service of two chains: each acts on the chain its `?chainId=` names (the first without
 * it), a chain not run is a 400 naming those run, the Activity lists every chain's operations, and a dApp's gas
 * tanks are read on its own chain.
 */
let service: TestService
let headers: Record<string, string>
const url = (path: string) => `${service.baseUrl}${path}`
const get = (path: string) => requestJson(url(path), { headers })
const post = (path: string, body?: unknown) => requestJson(url(path), { method: 'POST', headers, body })

beforeAll(async () => {
  service = await startTestService({ chains: [{ chainId: 31337 }, { chainId: 31338 }] })
  headers = { authToken: service.authToken() }
}, 120_000)
afterAll(async () => {
  await service?.dispose()
})

describe('the console routes of a service of two chains', () => {
  it('refuse a chainId the service does not run with a 400 naming the chains it runs', async () => {
    for (const path of [
      '/console/api/sandbox/accounts?chainId=5',
      '/console/api/time?chainId=5',
      '/console/api/user-operations?chainId=5',
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(400)
      expect(res.body.message).toBe('chainId 5 is not served here; this service runs chains 31337 and 31338')
    }
    const notANumber = await get('/console/api/time?chainId=main')
    expect(notANumber.status).toBe(400)
    expect(notANumber.body.message).toBe('chainId must be a number')
  })

  it("list a sandbox account on every chain, with each chain's balance, and sign on the chain named", async () => {
    const created = await requestJson(url('/console/api/sandbox/accounts?chainId=31337'), {
      method: 'POST',
      headers,
      body: { type: 'SIMPLE_ACCOUNT_V07' },
    })
    expect(created.status).toBe(200)
    const account: SandboxAccount = created.body.data
    const funded = await post('/console/api/sandbox/faucet?chainId=31338', {
      address: account.address,
      asset: 'ETH',
      amount: '2',
    })
    expect(funded.status).toBe(200)
    const balanceOn = async (chainId: number) => {
      const list = await get(`/console/api/sandbox/accounts?chainId=${chainId}`)
      return list.body.data.find((a: SandboxAccount) => a.address === account.address)?.balanceWei
    }
    expect(await balanceOn(31338)).toBe(2n * 10n ** 18n + '')
    expect(await balanceOn(31337)).toBe('0')

    // The same operation built and signed on each chain: the hash each signs is its chain's.
    const calls = { calls: [{ to: randomAddress() }] }
    const signedOn = async (chainId: number) => {
      const built = await post(
        `/console/api/sandbox/accounts/${account.address}/user-operation?chainId=${chainId}`,
        calls,
      )
      expect(built.status).toBe(200)
      const signed = await post(`/console/api/sandbox/accounts/${account.address}/sign?chainId=${chainId}`, {
        userOperation: built.body.data.userOperation,
      })
      expect(signed.status).toBe(200)
      return signed.body.data.userOpHash as string
    }
    const [first, second] = [await signedOn(31337), await signedOn(31338)]
    expect(first).toMatch(/^0x[0-9a-f]{64}$/)
    expect(second).not.toBe(first)
  })

  it("list every chain's operations, newest first, or one chain's; an operation of the second chain is found by hash", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const onFirst = await sendSponsoredMint(
      service,
      31337,
      await createDappOn(service, 31337),
      owner,
      randomAddress(),
    )
    const onSecond = await sendSponsoredMint(
      service,
      31338,
      await createDappOn(service, 31338),
      owner,
      randomAddress(),
    )

    const every = await get('/console/api/user-operations?limit=50')
    expect(every.status).toBe(200)
    const items: { userOpHash: string; chainId: number; seq: number }[] = every.body.data.items
    expect(items.slice(0, 2).map((r) => [r.userOpHash, r.chainId])).toEqual([
      [onSecond.hash.toLowerCase(), 31338],
      [onFirst.hash.toLowerCase(), 31337],
    ])
    expect(items.map((r) => r.seq)).toEqual([...items.map((r) => r.seq)].sort((a, b) => b - a))

    const second = await get('/console/api/user-operations?chainId=31338')
    expect(second.body.data.items.map((r: { chainId: number }) => r.chainId)).toEqual(
      second.body.data.items.map(() => 31338),
    )
    expect(second.body.data.items.map((r: { userOpHash: string }) => r.userOpHash)).toContain(
      onSecond.hash.toLowerCase(),
    )
    const one = await get(`/console/api/user-operations/${onSecond.hash}`)
    expect(one.status).toBe(200)
    expect(one.body.data).toMatchObject({ chainId: 31338, status: 'included' })
    expect(one.body.data.account).toEqual(expect.any(String))
  })

  it("read a dApp's gas tank on its own chain", async () => {
    const dapp = await createDappOn(service, 31338)
    const tank = await get(`/console/api/dapps/${dapp.apiKey}/gas-tank`)
    expect(tank.status).toBe(200)
    expect(tank.body.data.balanceEth).toBe('10')
    const deposited = await post(`/console/api/dapps/${dapp.apiKey}/gas-tank`, {
      action: 'deposit',
      amountWei: (10n ** 18n).toString(),
    })
    expect(deposited.status).toBe(200)
    const { chain, client } = chainOf(service, 31338)
    const receipt = await client.getTransactionReceipt({ hash: deposited.body.data.transactionHash })
    expect(receipt.status).toBe('success')
    expect(deposited.body.data.balanceEth).toBe('11')
    expect(chain.chainId).toBe(31338)
  })

  it('move time and keep snapshot names on the chain named, leaving the other chain as it was', async () => {
    const before = (await get('/console/api/time?chainId=31337')).body.data
    const mined = await post('/console/api/time/mine?chainId=31338', { blocks: 3 })
    expect(mined.status).toBe(200)
    const taken = await post('/console/api/time/snapshots?chainId=31338', { name: 'second only' })
    expect(taken.body.data.snapshots.map((s: { name: string }) => s.name)).toEqual(['second only'])
    const first = (await get('/console/api/time')).body.data
    expect(first.blockNumber).toBe(before.blockNumber)
    expect(first.snapshots).toEqual([])
    const second = (await get('/console/api/time?chainId=31338')).body.data
    expect(second.snapshots.map((s: { name: string }) => s.name)).toEqual(['second only'])
    expect(second.blockNumber).toBe(mined.body.data.blockNumber)
  })
})
