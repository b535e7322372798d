import { toSimpleSmartAccount } from 'permissionless/accounts'
import { encodeFunctionData, http } from 'viem'
import { createBundlerClient, createPaymasterClient, entryPoint06Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { createDapp, registerToken, tokenBalance } from '../paymaster/paymasterTestKit'

/**
 * The same account (same owner, same factory) on two chains: the contracts sit at their canonical addresses on every
 * chain, so its counterfactual address is the same, as on real networks. Two services here, one per chain (the second
 * named by a list of one chain, `chains: [{ chainId: 31338 }]`); one service running both is the next step.
 */
let services: TestService[] = []

beforeAll(async () => {
  services = await Promise.all([startTestService(), startTestService({ chains: [{ chainId: 31338 }] })])
}, 120_000)
afterAll(async () => {
  await Promise.all(services.map((s) => s.dispose()))
})

describe('the same SimpleAccount on two chains', () => {
  it('has the same address on both, is sponsored on each, and each chain records its own operation', async () => {
    expect(services.map((s) => s.info().chainId)).toEqual([31337, 31338])
    const owner = privateKeyToAccount(generatePrivateKey())
    const recipient = randomAddress()
    const sent = await Promise.all(
      services.map(async (service) => {
        const { apiKey, paymasterUrl } = await createDapp(service)
        const token = await registerToken(service, apiKey, ['mint'])
        const client = publicClientOf(service)
        const account = await toSimpleSmartAccount({
          client,
          owner,
          entryPoint: { address: entryPoint06Address, version: '0.6' },
          factoryAddress: service.chain!.addresses.simpleAccountFactory,
        })
        const bundlerClient = createBundlerClient({
          client,
          account,
          paymaster: createPaymasterClient({ transport: http(paymasterUrl) }),
          transport: http(service.info().bundlerUrl),
          pollingInterval: 50,
        })
        const hash = await bundlerClient.sendUserOperation({
          calls: [
            {
              to: token,
              data: encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [recipient, 5n] }),
            },
          ],
        })
        const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 30_000 })
        return { service, account, hash, receipt, token, client }
      }),
    )
    const [first, second] = sent as [(typeof sent)[number], (typeof sent)[number]]
    expect(second.service.chain!.addresses.simpleAccountFactory).toBe(
      first.service.chain!.addresses.simpleAccountFactory,
    )
    expect(second.account.address).toBe(first.account.address)
    // Different chains, so different userOpHashes for the same operation.
    expect(second.hash).not.toBe(first.hash)
    for (const { service, account, hash, receipt, token, client } of sent) {
      expect(receipt.success).toBe(true)
      expect(receipt.sender).toBe(account.address)
      // The receipt is the chain's own: its transaction is in that chain's blocks.
      const onChain = await client.getTransactionReceipt({ hash: receipt.receipt.transactionHash })
      expect(onChain.status).toBe('success')
      expect(await client.getChainId()).toBe(service.info().chainId)
      expect(await tokenBalance(service, token, recipient)).toBe(5n)
      // Records reach the store document in batches (about every second).
      const record = await vi.waitFor(
        () => {
          const found = service.store.data.userOperations.find((r) => r.userOpHash === hash.toLowerCase())
          if (!found) throw new Error('not written yet')
          return found
        },
        { timeout: 10_000, interval: 100 },
      )
      expect(record.chainId).toBe(service.info().chainId)
      const decisions = service.store.data.sponsorships.filter((s) => s.sender === account.address)
      expect(decisions.map((d) => d.chainId)).toEqual(decisions.map(() => service.info().chainId))
      expect(decisions.length).toBeGreaterThan(0)
    }
  }, 120_000)
})

describe('the chains of a setup file', () => {
  const shop = { name: 'shop', apiKey: 'Abc123XyZ.1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d' }

  it('run when the caller names none, and give the state startOpstation({ chains }) gives', async () => {
    const [fromSetup, fromOption] = await Promise.all([
      startTestService({ setup: { version: 1, chains: [31338], dapps: [{ ...shop, chainId: 31338 }] } }),
      startTestService({ chains: [{ chainId: 31338 }], setup: { version: 1, dapps: [shop] } }),
    ])
    try {
      for (const service of [fromSetup, fromOption]) {
        expect(service.info().chainId).toBe(31338)
        expect(service.store.data.dapps.map((d) => [d.name, d.chainId, d.apiKey])).toEqual([
          ['shop', 31338, shop.apiKey],
        ])
      }
      const exportOf = async (service: TestService) => {
        const res = await fetch(`${service.baseUrl}/console/api/setup`, {
          headers: { authToken: service.authToken() },
        })
        expect(res.status).toBe(200)
        return ((await res.json()) as { data: unknown }).data
      }
      expect(await exportOf(fromSetup)).toEqual(await exportOf(fromOption))
    } finally {
      await Promise.all([fromSetup.dispose(), fromOption.dispose()])
    }
  }, 120_000)

  it('are checked against the chain the caller named: one it does not run is refused, naming the chain it runs', async () => {
    await expect(startTestService({ chainId: 31337, setup: { version: 1, chains: [5] } })).rejects.toThrow(
      'setup: chains[0].chainId is 5, a chain this Opstation does not run (it runs chain 31337)',
    )
  }, 60_000)
})
