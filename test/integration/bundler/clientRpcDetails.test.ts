import { createSmartAccountClient } from 'permissionless'
import { toSimpleSmartAccount } from 'permissionless/accounts'
import { createPimlicoClient } from 'permissionless/clients/pimlico'
import { createPublicClient, createWalletClient, http } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundEth } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import {
  buildSponsorRequestOp,
  buildSponsorRequestOpV07,
  callPaymaster,
  createDapp,
  registerToken,
} from '../paymaster/paymasterTestKit'
import { callBundler, createSimpleAccountClient, publicClientOf, randomAddress } from './bundlerTestKit'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service?.dispose()
})

describe('RPC details clients assume', () => {
  it("answers permissionless' Pimlico client: gas prices from the bundler URL, and an ERC-7677 sponsored v0.7 operation sent with the fast price", async () => {
    const { paymasterUrl } = await createDapp(service)
    const client = publicClientOf(service)
    const bundlerUrl = service.info().bundlerUrl
    const pimlico = createPimlicoClient({
      transport: http(bundlerUrl),
      entryPoint: { address: entryPoint07Address, version: '0.7' },
    })
    const prices = await pimlico.getUserOperationGasPrice()
    expect(prices.slow.maxFeePerGas <= prices.standard.maxFeePerGas).toBe(true)
    expect(prices.standard.maxFeePerGas <= prices.fast.maxFeePerGas).toBe(true)
    const account = await toSimpleSmartAccount({
      client,
      owner: privateKeyToAccount(generatePrivateKey()),
      entryPoint: { address: entryPoint07Address, version: '0.7' },
    })
    const smartAccountClient = createSmartAccountClient({
      account,
      client,
      chain: client.chain,
      bundlerTransport: http(bundlerUrl),
      paymaster: createPimlicoClient({
        transport: http(paymasterUrl),
        entryPoint: { address: entryPoint07Address, version: '0.7' },
      }),
      userOperation: { estimateFeesPerGas: async () => (await pimlico.getUserOperationGasPrice()).fast },
    })
    const to = randomAddress()
    const hash = await smartAccountClient.sendTransaction({ calls: [{ to, value: 0n }] })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    const zd = await callBundler(service, 'zd_getUserOperationGasPrice', [])
    expect(zd.body.result.standard.maxFeePerGas).toMatch(/^0x[0-9a-f]+$/)
    const atPaymaster = await callPaymaster(service, 'x', 'pimlico_getUserOperationGasPrice', [])
    expect(atPaymaster.status).not.toBe(404)
  }, 60_000)

  it("answers thirdweb's thirdweb_getUserOperationGasPrice with the fees the bundler suggests, as 0x-hex (the slow tier of pimlico_getUserOperationGasPrice)", async () => {
    const [thirdweb, pimlico] = await Promise.all([
      callBundler(service, 'thirdweb_getUserOperationGasPrice', []),
      callBundler(service, 'pimlico_getUserOperationGasPrice', []),
    ])
    expect(thirdweb.body.result).toEqual({
      maxFeePerGas: expect.stringMatching(/^0x[0-9a-f]+$/),
      maxPriorityFeePerGas: expect.stringMatching(/^0x[0-9a-f]+$/),
    })
    expect(thirdweb.body.result).toEqual(pimlico.body.result.slow)
  })

  it("serves Pimlico's and Stackup's pm_sponsorUserOperation(op, entryPoint, ctx) with 0x-hex answers, refuses with an error, and lists pm_supportedEntryPoints", async () => {
    const { apiKey } = await createDapp(service)
    const a = service.chain!.addresses
    const v06 = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
      await buildSponsorRequestOp(service),
      a.entryPoint,
    ])
    expect(v06.body.result.paymasterAndData.slice(0, 42).toLowerCase()).toBe(
      a.verifyingPaymaster.toLowerCase(),
    )
    for (const field of ['preVerificationGas', 'verificationGasLimit', 'callGasLimit'])
      expect(v06.body.result[field]).toMatch(/^0x[0-9a-f]+$/)
    const v07 = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
      await buildSponsorRequestOpV07(service),
      a.entryPointV07,
      { sponsorshipPolicyId: 'sp_ignored' },
    ])
    expect(v07.body.result).toMatchObject({ paymaster: a.verifyingPaymasterV07 })
    expect(v07.body.result.paymasterVerificationGasLimit).toMatch(/^0x[0-9a-f]+$/)

    await registerToken(service, apiKey, ['mint'])
    const refused = await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [
      await buildSponsorRequestOpV07(service, { to: randomAddress() }),
      a.entryPointV07,
    ])
    expect(refused.body.error.message).toMatch(/Smart contract data not found/)

    const supported = await callPaymaster(service, apiKey, 'pm_supportedEntryPoints', [])
    expect(supported.body.result).toEqual([a.entryPoint, a.entryPointV07, a.entryPointV08, a.entryPointV09])
  })

  it('debug_bundler_getStakeStatus judges stake as ERC-7562 does, and debug_bundler_clearMempool drops pending operations only', async () => {
    const a = service.chain!.addresses
    const staked = await callBundler(service, 'debug_bundler_getStakeStatus', [
      a.verifyingPaymasterV07,
      a.entryPointV07,
    ])
    expect(staked.body.result).toMatchObject({
      stakeInfo: { addr: a.verifyingPaymasterV07, unstakeDelaySec: '86400' },
      isStaked: true,
    })
    const unstaked = await callBundler(service, 'debug_bundler_getStakeStatus', [
      randomAddress(),
      a.entryPointV07,
    ])
    expect(unstaked.body.result).toMatchObject({ stakeInfo: { stake: '0' }, isStaked: false })

    const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.7')
    await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])
    try {
      const hash = await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
      expect((await callBundler(service, 'debug_bundler_dumpMempool', [])).body.result).toHaveLength(1)
      expect((await callBundler(service, 'debug_bundler_clearMempool', [])).body.result).toBe('ok')
      expect((await callBundler(service, 'debug_bundler_dumpMempool', [])).body.result).toHaveLength(0)
      const status = await callBundler(service, 'biconomy_getUserOperationStatus', [hash])
      expect(JSON.stringify(status.body)).toMatch(/debug_bundler_clearMempool/)
    } finally {
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  }, 60_000)

  it('debug_bundler_setConfiguration changes the live settings and answers them all; an unknown or bad setting is -32602', async () => {
    const set = (patch: unknown) => callBundler(service, 'debug_bundler_setConfiguration', [patch])
    const before = (await set({})).body.result
    expect(before).toEqual({
      bundlingMode: 'auto',
      maxPendingPerUnstakedSender: 4,
      minStake: '1',
      minUnstakeDelay: 86_400,
      nonceGapWaitMs: 2000,
      receiptWaitMs: 1000,
    })
    try {
      const changed = await set({
        bundlingMode: 'manual',
        maxPendingPerUnstakedSender: 8,
        minStake: '0x2',
        minUnstakeDelay: 2,
        receiptWaitMs: 0,
      })
      expect(changed.body.result).toEqual({
        ...before,
        bundlingMode: 'manual',
        maxPendingPerUnstakedSender: 8,
        minStake: '2',
        minUnstakeDelay: 2,
        receiptWaitMs: 0,
      })
      // It takes effect: in manual mode an operation waits in the mempool.
      const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.7')
      await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
      expect((await callBundler(service, 'debug_bundler_dumpMempool', [])).body.result).toHaveLength(1)
      await callBundler(service, 'debug_bundler_sendBundleNow', [])

      const unknown = await set({ maxBundleGas: 1 })
      expect(unknown.body.error.code).toBe(-32602)
      expect(unknown.body.error.message).toContain('maxBundleGas')
      const bad = await set({ receiptWaitMs: 'soon' })
      expect(bad.body.error.code).toBe(-32602)
      expect(bad.body.error.message).toContain('receiptWaitMs must be a number of milliseconds')
    } finally {
      await set(before)
    }
    expect((await set({})).body.result).toEqual(before)
  }, 60_000)

  it("passes standard chain methods at the bundler URL to the node (a viem client on that one URL reads and sends), and never the node's own keys or dev methods", async () => {
    const bundlerUrl = service.info().bundlerUrl
    const viaBundler = createPublicClient({
      chain: publicClientOf(service).chain,
      transport: http(bundlerUrl),
    })
    const a = service.chain!.addresses
    expect(await viaBundler.getBlockNumber()).toBe(
      await service.chain!.publicClient.getBlockNumber({ cacheTime: 0 }),
    )
    expect(await viaBundler.getCode({ address: a.entryPointV07 })).toBe(
      await service.chain!.publicClient.getCode({ address: a.entryPointV07 }),
    )
    // A signed transaction goes through; its receipt is read back through the same URL.
    const sender = privateKeyToAccount(generatePrivateKey())
    await fundEth(service.chain!, sender.address, 10n ** 18n)
    const wallet = createWalletClient({
      account: sender,
      chain: viaBundler.chain,
      transport: http(bundlerUrl),
    })
    const to = randomAddress()
    const hash = await wallet.sendTransaction({ to, value: 5n, chain: viaBundler.chain })
    expect((await viaBundler.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe('success')
    expect(await viaBundler.getBalance({ address: to })).toBe(5n)
    // A reverting eth_call is the node's error, with its revert data, answered with HTTP 200 as a node does.
    const reverted = await callBundler(service, 'eth_call', [
      { to: a.entryPointV07, data: '0x12345678' },
      'latest',
    ])
    expect(reverted.status).toBe(200)
    expect(reverted.body.error.code).toBeTypeOf('number')
    for (const method of [
      'eth_sendTransaction',
      'eth_accounts',
      'anvil_setBalance',
      'evm_mine',
      'debug_traceCall',
    ]) {
      const refused = await callBundler(service, method, [])
      expect(refused.body.error.code, method).toBe(-32601)
    }
  }, 60_000)
})
