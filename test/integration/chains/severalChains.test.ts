import { existsSync } from 'node:fs'
import path from 'node:path'
import { encodeFunctionData } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { callRpc, chainOf, createDappOn, sendSponsoredMint } from './chainsTestKit'

/**
 * One service running two embedded chains (`chains: [31337, 31338]`, as `opstation serve --chains 31337,31338`): each
 * chain with its own URLs, dApps, bundler, paymaster, records and snapshots.
 */
let service: TestService

beforeAll(async () => {
  service = await startTestService({ chains: [{ chainId: 31337 }, { chainId: 31338 }] })
}, 120_000)
afterAll(async () => {
  await service?.dispose()
})

/** A record of the store document, once the log has written it (in batches, about every second). */
const writtenRecord = (hash: string) =>
  vi.waitFor(
    () => {
      const found = service.store.data.userOperations.find((r) => r.userOpHash === hash.toLowerCase())
      if (!found) throw new Error('not written yet')
      return found
    },
    { timeout: 10_000, interval: 100 },
  )

describe('a service of two chains', () => {
  it('lists every chain with its own URLs, and keeps the single-chain fields for the first', async () => {
    const info = service.info()
    const base = service.baseUrl
    const key = service.store.data.accounts[0]?.bundlerKey
    expect(info.chainId).toBe(31337)
    expect(info.bundlerUrl).toBe(`${base}/api/v2/31337/${key}`)
    expect(info.rpcUrl).toBe(`${base}/rpc`)
    expect(info.chains).toEqual([
      {
        chainId: 31337,
        kind: 'embedded',
        state: 'ready',
        missing: [],
        chainTimeOffsetSeconds: expect.any(Number),
        rpcUrl: `${base}/rpc/31337`,
        bundlerUrl: `${base}/api/v2/31337/${key}`,
        paymasterUrlTemplate: `${base}/api/v1/31337/{apiKey}`,
      },
      {
        chainId: 31338,
        kind: 'embedded',
        state: 'ready',
        missing: [],
        chainTimeOffsetSeconds: expect.any(Number),
        rpcUrl: `${base}/rpc/31338`,
        bundlerUrl: `${base}/api/v2/31338/${key}`,
        paymasterUrlTemplate: `${base}/api/v1/31338/{apiKey}`,
      },
    ])
    // The console's status carries the list too.
    const status = await requestJson(`${base}/console/api/status`, {
      headers: { authToken: service.authToken() },
    })
    expect(status.body.chains.map((c: { chainId: number }) => c.chainId)).toEqual([31337, 31338])
  })

  it("answers each chain's id at its own chain RPC and bundler URL, /rpc being the first chain's", async () => {
    for (const { chainId, rpcUrl, bundlerUrl } of service.info().chains) {
      expect((await callRpc(rpcUrl, 'eth_chainId')).body.result).toBe(`0x${chainId.toString(16)}`)
      expect((await callRpc(bundlerUrl, 'eth_chainId')).body.result).toBe(`0x${chainId.toString(16)}`)
    }
    expect((await callRpc(`${service.baseUrl}/rpc`, 'eth_chainId')).body.result).toBe('0x7a69')
  })

  it('answers a URL naming a chain it does not run with an error naming the chains it runs', async () => {
    const key = service.store.data.accounts[0]?.bundlerKey
    const expected = {
      code: -32003,
      message: 'Chain ID 5 in the URL is not served here; this service runs chains 31337 and 31338',
      data: { chainIds: [31337, 31338] },
    }
    for (const url of [`${service.baseUrl}/rpc/5`, `${service.baseUrl}/api/v2/5/${key}`]) {
      const answer = await callRpc(url, 'eth_chainId')
      expect(answer.body.error).toEqual(expected)
    }
    const { apiKey } = await createDappOn(service, 31337)
    const paymaster = await callRpc(`${service.baseUrl}/api/v1/5/${apiKey}`, 'eth_chainId')
    expect(paymaster.body.error).toEqual(expected)
  })

  it("creates a dApp on the chain its chainId names, served only at its own chain's paymaster URL", async () => {
    const onSecond = await createDappOn(service, 31338)
    const dapp = service.store.data.dapps.find((d) => d.apiKey === onSecond.apiKey)
    expect(dapp?.chainId).toBe(31338)
    // Its gas tanks are on its chain.
    expect(dapp?.paymasterId).toMatch(/^0x/)
    expect(dapp?.gasTanksFunded?.length).toBeGreaterThan(0)
    expect((await callRpc(onSecond.paymasterUrl, 'eth_chainId')).body.result).toBe('0x7a6a')
    const elsewhere = await callRpc(`${service.baseUrl}/api/v1/31337/${onSecond.apiKey}`, 'eth_chainId')
    expect(elsewhere.body.error?.message).toBe(
      `The paymaster "${onSecond.name}" is for chain 31338, not 31337`,
    )
  })

  it('refuses a dApp for a chain it does not run with the dashboard message and the chains it runs', async () => {
    const refused = await requestJson(`${service.baseUrl}/api/v2/public/sdk/paymaster`, {
      method: 'POST',
      headers: { authToken: service.authToken() },
      body: { name: 'elsewhere', type: 'HYBRID', chainId: 5, version: '1.1.0' },
    })
    expect(refused.status).toBe(400)
    expect(refused.body.message).toBe('Chain ID not supported')
    expect(refused.body.data.chainIds).toEqual([31337, 31338])
  })

  it('sponsors the same account (same owner) on both chains: one address, a receipt on each chain', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const recipient = randomAddress()
    const sent = await Promise.all(
      [31337, 31338].map(async (chainId) => {
        const dapp = await createDappOn(service, chainId)
        return { chainId, dapp, ...(await sendSponsoredMint(service, chainId, dapp, owner, recipient)) }
      }),
    )
    const [first, second] = sent as [(typeof sent)[number], (typeof sent)[number]]
    expect(second.account.address).toBe(first.account.address)
    expect(second.hash).not.toBe(first.hash)
    for (const { chainId, dapp, account, hash, receipt } of sent) {
      const { client } = chainOf(service, chainId)
      expect(receipt.success).toBe(true)
      expect(receipt.sender).toBe(account.address)
      // The receipt is the chain's own: its transaction is in that chain's blocks, and not in the other's.
      expect((await client.getTransactionReceipt({ hash: receipt.receipt.transactionHash })).status).toBe(
        'success',
      )
      const other = chainOf(service, chainId === 31337 ? 31338 : 31337).client
      await expect(other.getTransactionReceipt({ hash: receipt.receipt.transactionHash })).rejects.toThrow()
      const minted = await client.readContract({
        address: dapp.token,
        abi: testTokenAbi,
        functionName: 'balanceOf',
        args: [recipient],
      })
      expect(minted).toBe(5n)
      expect((await writtenRecord(hash)).chainId).toBe(chainId)
      // Each chain's bundler knows its own operation only.
      const otherBundler = chainOf(service, chainId === 31337 ? 31338 : 31337).info.bundlerUrl
      expect((await callRpc(otherBundler, 'eth_getUserOperationReceipt', [hash])).body.result).toBeNull()
    }
  }, 120_000)

  it('keeps each chain in its own folder of the data folder', () => {
    expect(existsSync(path.join(service.dataDir, 'chain', 'keys.json'))).toBe(true)
    expect(existsSync(path.join(service.dataDir, 'chains', '31338', 'chain', 'keys.json'))).toBe(true)
    expect(existsSync(path.join(service.dataDir, 'chains', '31338', 'chain', 'journal'))).toBe(true)
    expect(existsSync(path.join(service.dataDir, 'chains', '31338', 'history'))).toBe(true)
  })

  it("reverts one chain's stack at its URL and leaves the other chain's records, dApps and mempool", async () => {
    const second = chainOf(service, 31338)
    const snapshot = (await callRpc(second.info.rpcUrl, 'evm_snapshot')).body.result as string
    const owner = privateKeyToAccount(generatePrivateKey())
    const recipient = randomAddress()
    const dapps = {
      31337: await createDappOn(service, 31337),
      31338: await createDappOn(service, 31338),
    }
    const mints = {
      31337: await sendSponsoredMint(service, 31337, dapps[31337], owner, recipient),
      31338: await sendSponsoredMint(service, 31338, dapps[31338], owner, recipient),
    }
    // An operation waiting in the first chain's mempool: a revert of the second chain leaves it there.
    await callRpc(chainOf(service, 31337).info.bundlerUrl, 'debug_bundler_setBundlingMode', ['manual'])
    const waiting = await mints[31337].bundlerClient.sendUserOperation({
      calls: [
        {
          to: dapps[31337].token,
          data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [recipient, 1n] }),
        },
      ],
    })
    await writtenRecord(mints[31338].hash)
    await writtenRecord(mints[31337].hash)

    expect((await callRpc(second.info.rpcUrl, 'evm_revert', [snapshot])).body.result).toBe(true)

    const apiKeys = service.store.data.dapps.map((d) => d.apiKey)
    expect(apiKeys).not.toContain(dapps[31338].apiKey)
    expect(apiKeys).toContain(dapps[31337].apiKey)
    const hashes = service.store.data.userOperations.map((r) => r.userOpHash)
    expect(hashes).not.toContain(mints[31338].hash.toLowerCase())
    expect(hashes).toContain(mints[31337].hash.toLowerCase())
    expect(
      service.store.data.sponsorships.filter(
        (s) => s.sender === mints[31338].account.address && s.chainId === 31338,
      ),
    ).toEqual([])
    expect(service.store.data.sponsorships.some((s) => s.sender === mints[31337].account.address)).toBe(true)
    const receiptAt = async (chainId: number, hash: string) =>
      (await callRpc(chainOf(service, chainId).info.bundlerUrl, 'eth_getUserOperationReceipt', [hash])).body
        .result
    expect(await receiptAt(31338, mints[31338].hash)).toBeNull()
    expect((await receiptAt(31337, mints[31337].hash))?.success).toBe(true)
    const mempool = await callRpc(chainOf(service, 31337).info.bundlerUrl, 'debug_bundler_dumpMempool', [
      '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    ])
    expect(mempool.body.result).toHaveLength(1)
    expect(service.chains.get(31337)?.bundler.userOperations.get(waiting)?.status).toBe('pending')
    await callRpc(chainOf(service, 31337).info.bundlerUrl, 'debug_bundler_sendBundleNow')
    await callRpc(chainOf(service, 31337).info.bundlerUrl, 'debug_bundler_setBundlingMode', ['auto'])
  }, 120_000)
  it("moves one chain's clock at its URL and leaves the other's: that chain tells the console, and the status gives each chain's time", async () => {
    const [first, second] = [chainOf(service, 31337).chain, chainOf(service, 31338).chain]
    const before = { first: first.clock.now(), second: second.clock.now() }
    const told: { chainId?: number; offsetSeconds: number }[] = []
    const stopListening = service.events.on('chain.time', (payload) => told.push(payload))
    try {
      await callRpc(chainOf(service, 31338).info.rpcUrl, 'evm_increaseTime', ['0xe10'])
      await callRpc(chainOf(service, 31338).info.rpcUrl, 'evm_mine')
    } finally {
      stopListening()
    }
    expect(second.clock.now() - before.second).toBeGreaterThanOrEqual(3600)
    expect(first.clock.now() - before.first).toBeLessThan(60)
    expect(told.length).toBeGreaterThan(0)
    expect(told.every((event) => event.chainId === 31338)).toBe(true)
    // An hour ahead of wall time (a chain's time lags the wall clock by its last block's age).
    expect(told.at(-1)?.offsetSeconds).toBeGreaterThan(3500)
    const status = await requestJson(`${service.baseUrl}/console/api/status`, {
      headers: { authToken: service.authToken() },
    })
    const offsets = Object.fromEntries(
      status.body.chains.map((c: { chainId: number; chainTimeOffsetSeconds: number }) => [
        c.chainId,
        c.chainTimeOffsetSeconds,
      ]),
    )
    expect(offsets[31338]).toBeGreaterThan(3500)
    expect(Math.abs(offsets[31337])).toBeLessThan(60)
    expect(status.body.chainTimeOffsetSeconds).toBe(offsets[31337])
  })

  it("resets one chain at its URL: its activity is gone and its gas tanks funded again; the other chain's stays", async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const dapps = { 31337: await createDappOn(service, 31337), 31338: await createDappOn(service, 31338) }
    const mints = {
      31337: await sendSponsoredMint(service, 31337, dapps[31337], owner, randomAddress()),
      31338: await sendSponsoredMint(service, 31338, dapps[31338], owner, randomAddress()),
    }
    await writtenRecord(mints[31337].hash)
    await writtenRecord(mints[31338].hash)
    const second = chainOf(service, 31338)
    expect((await callRpc(second.info.rpcUrl, 'anvil_reset')).body.error).toBeUndefined()
    const records = service.store.data.userOperations
    expect(records.some((r) => r.chainId === 31338)).toBe(false)
    expect(records.map((r) => r.userOpHash)).toContain(mints[31337].hash.toLowerCase())
    expect(service.store.data.sponsorships.some((s) => s.chainId === 31338)).toBe(false)
    // The dApps stay; the reset chain's are funded again, and sponsor on the new chain.
    const dapp = service.store.data.dapps.find((d) => d.apiKey === dapps[31338].apiKey)
    expect(dapp?.gasTanksFunded?.length).toBeGreaterThan(0)
    const again = await sendSponsoredMint(service, 31338, dapps[31338], owner, randomAddress())
    expect(again.receipt.success).toBe(true)
  }, 120_000)
})
