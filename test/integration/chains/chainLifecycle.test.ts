import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, vi } from 'vitest'
import { startOpstation } from '../../../src/main/api/startOpstation'
import { createService } from '../../../src/main/service/createService'
import { StartupError } from '../../../src/main/service/errors'
import { startPlainAnvil } from '../../helpers/startPlainAnvil'
import { makeTestDataDir, requestJson, startTestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { callRpc, chainOf, createDappOn, sendSponsoredMint } from './chainsTestKit'

describe('a service of several chains, as its chains start and stop', () => {
  it('keeps serving one chain while the external node of the other stops', async () => {
    const node = await startPlainAnvil(31339)
    const service = await startTestService({
      chains: [{ chainId: 31337 }, { chainId: 31339, rpcUrl: node.url }],
    })
    try {
      const external = chainOf(service, 31339)
      expect(external.info).toMatchObject({ kind: 'external', state: 'ready', rpcUrl: node.url })
      expect((await callRpc(external.info.bundlerUrl, 'eth_chainId')).body.result).toBe('0x7a6b')
      await node.stop()
      await vi.waitFor(() => expect(chainOf(service, 31339).info.state).toBe('unreachable'), {
        timeout: 20_000,
        interval: 200,
      })
      // The node's chain answers that it is away; the other chain sponsors and mines as before.
      const away = await callRpc(external.info.bundlerUrl, 'eth_blockNumber')
      expect(away.body.error?.message).toMatch(/has not answered since/)
      const dapp = await createDappOn(service, 31337)
      const { receipt } = await sendSponsoredMint(
        service,
        31337,
        dapp,
        privateKeyToAccount(generatePrivateKey()),
        randomAddress(),
      )
      expect(receipt.success).toBe(true)
      expect(chainOf(service, 31337).info.state).toBe('ready')
    } finally {
      await service.dispose()
      await node.stop()
    }
  }, 120_000)

  it("keeps each chain's state its own when the order of the chains changes on a data folder", async () => {
    const dataDir = await makeTestDataDir('opstation-chains-order-')
    const probe = randomAddress()
    const balances = { 31337: 7n, 31338: 11n } as const
    try {
      const first = await startTestService({ dataDir, chains: [{ chainId: 31337 }, { chainId: 31338 }] })
      for (const [chainId, balance] of Object.entries(balances))
        await callRpc(chainOf(first, Number(chainId)).info.rpcUrl, 'anvil_setBalance', [
          probe,
          `0x${balance.toString(16)}`,
        ])
      await first.close()
      // The other order: the chain that kept the data folder's own chain/ keeps it, the other its chains/<id>/.
      const second = await startTestService({ dataDir, chains: [{ chainId: 31338 }, { chainId: 31337 }] })
      try {
        for (const [chainId, balance] of Object.entries(balances))
          expect(await chainOf(second, Number(chainId)).client.getBalance({ address: probe })).toBe(balance)
      } finally {
        await second.close()
      }
      expect(existsSync(path.join(dataDir, 'chains', '31338', 'chain'))).toBe(true)
      expect(existsSync(path.join(dataDir, 'chains', '31337'))).toBe(false)
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it("runs the chains the console's Settings saved at the next start that names none", async () => {
    const dataDir = await makeTestDataDir('opstation-chains-settings-')
    const settingsOf = (service: { baseUrl: string; authToken: () => string }, body?: unknown) =>
      requestJson(`${service.baseUrl}/console/api/settings`, {
        method: body === undefined ? 'GET' : 'PATCH',
        headers: { authToken: service.authToken() },
        body,
      })
    try {
      const first = await startTestService({ dataDir, noChain: true })
      const bad = await settingsOf(first, { chains: '31337,abc' })
      expect(bad.body.statusCode).toBe(400)
      expect(bad.body.message).toMatch(/^chains entry "abc" must be <chainId>/)
      const saved = await settingsOf(first, { chains: ' 31337, 31338 ' })
      expect(saved.body.data).toMatchObject({
        saved: { chains: [{ chainId: 31337 }, { chainId: 31338 }] },
        effective: { chains: null },
        restartRequired: true,
      })
      await first.close()
      const second = await startTestService({ dataDir })
      try {
        expect(second.info().chains.map((chain) => chain.chainId)).toEqual([31337, 31338])
        expect((await settingsOf(second)).body.data).toMatchObject({
          effective: { chains: [{ chainId: 31337 }, { chainId: 31338 }] },
          restartRequired: false,
        })
        // Back to one chain, at the next start.
        const single = await settingsOf(second, { chains: '' })
        expect(single.body.data).toMatchObject({ saved: { chains: null }, restartRequired: true })
      } finally {
        await second.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)

  it('runs a fork beside an embedded chain, its fork pinned in its own folder', async () => {
    const remote = await startPlainAnvil(31342, { args: ['--hardfork', 'prague'] })
    const service = await startTestService({
      chains: [{ chainId: 31337 }, { chainId: 31342, forkUrl: remote.url }],
    })
    try {
      const fork = chainOf(service, 31342)
      expect(fork.info).toMatchObject({
        kind: 'embedded',
        state: 'ready',
        rpcUrl: `${service.baseUrl}/rpc/31342`,
      })
      expect(fork.chain.fork?.url).toBe(remote.url)
      expect((await callRpc(fork.info.rpcUrl, 'eth_chainId')).body.result).toBe('0x7a6e')
      expect(existsSync(path.join(service.dataDir, 'chains', '31342', 'chain', 'fork.json'))).toBe(true)
      expect(existsSync(path.join(service.dataDir, 'chain', 'fork.json'))).toBe(false)
      // A dApp on the fork gets its gas tanks there.
      await createDappOn(service, 31342)
      expect(service.store.data.dapps.find((d) => d.chainId === 31342)?.paymasterId).toMatch(/^0x/)
    } finally {
      await service.dispose()
      await remote.stop()
    }
  }, 120_000)

  it('names, in one line, a chain that does not start, and starts nothing', async () => {
    const dataDir = await makeTestDataDir('opstation-chains-')
    const started = createService({
      port: 0,
      logLevel: 'silent',
      dataDir,
      chains: [{ chainId: 31337 }, { chainId: 31340, rpcUrl: 'http://127.0.0.1:9' }],
    })
    await expect(started).rejects.toBeInstanceOf(StartupError)
    const error = (await started.catch((err: Error) => err)) as Error
    expect(error.message).toBe(
      'Chain 31340 did not start: The node at http://127.0.0.1:9 does not answer eth_chainId',
    )
    // The data folder is free again (its lock released, the first chain's anvil stopped).
    expect(existsSync(path.join(dataDir, 'opstation.lock'))).toBe(false)
    await rm(dataDir, { recursive: true, force: true })
  }, 120_000)
})

describe('the chains of a setup file and of startOpstation({ chains })', () => {
  const dapps = [
    { name: 'shop', apiKey: 'Abc123XyZ.1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d', chainId: 31338 },
    { name: 'home', apiKey: 'Def456UvW.6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d' },
  ]

  it('give the same state: each dApp on its chain, the same export', async () => {
    const [fromSetup, fromOption] = await Promise.all([
      startTestService({ setup: { version: 1, chains: [31337, 31338], dapps } }),
      startOpstation({ chains: [{ chainId: 31337 }, { chainId: 31338 }], setup: { version: 1, dapps } }),
    ])
    try {
      expect(fromSetup.info().chains.map((c) => c.chainId)).toEqual([31337, 31338])
      expect(fromOption.chains.map((c) => c.chainId)).toEqual([31337, 31338])
      expect(fromSetup.store.data.dapps.map((d) => [d.name, d.chainId]).sort()).toEqual([
        ['home', 31337],
        ['shop', 31338],
      ])
      const exportOf = async (dashboardUrl: string, authToken: string) => {
        const res = await requestJson(`${dashboardUrl}/console/api/setup`, { headers: { authToken } })
        expect(res.status).toBe(200)
        return res.body.data
      }
      const exported = await exportOf(fromSetup.baseUrl, fromSetup.authToken())
      expect(
        exported.dapps.map((d: { name: string; chainId: number }) => [d.name, d.chainId]).sort(),
      ).toEqual([
        ['home', 31337],
        ['shop', 31338],
      ])
      expect(await exportOf(fromOption.dashboardUrl, fromOption.authToken)).toEqual(exported)
      // Each dApp's paymaster answers at its own chain's URL.
      for (const handle of fromOption.chains) {
        const own = dapps.find((d) => (d.chainId ?? 31337) === handle.chainId)!
        const url = handle.paymasterUrlTemplate.replace('{apiKey}', own.apiKey)
        expect((await callRpc(url, 'eth_chainId')).body.result).toBe(`0x${handle.chainId.toString(16)}`)
      }
    } finally {
      await Promise.all([fromSetup.dispose(), fromOption.stop()])
    }
  }, 180_000)
})
