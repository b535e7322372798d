import { PaymasterMode } from '@biconomy/account'
import { encodeFunctionData, zeroAddress } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { fundEth, testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { proveClientCell } from '../clients/clientMatrix'
import {
  callConsole,
  createBiconomyAccount,
  createDapp,
  gasTankOf,
  readPaymasterEvents,
  registerToken,
  tokenBalance,
} from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

const mint = (to: `0x${string}`, amount: bigint) =>
  encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] })

async function receiptOf(hash: `0x${string}`) {
  return service.chain!.publicClient.getTransactionReceipt({ hash })
}

describe('Biconomy SDK v4, SPONSORED, with bundlerUrl and paymasterUrl at the service', () => {
  it('deploys a new Smart Account v2 and runs a whitelisted call, paid from the gas tank by exactly the real cost', async (context) => {
    proveClientCell(context, {
      client: 'Biconomy SDK v4',
      account: 'Biconomy Smart Account v2',
      entryPoint: '0.6',
      payment: 'sponsored',
    })
    const { apiKey, paymasterId, paymasterUrl } = await createDapp(service)
    const token = await registerToken(service, apiKey, ['mint'])
    const { smartAccount, address } = await createBiconomyAccount(service, paymasterUrl)
    const recipient = randomAddress()
    const tankBefore = await gasTankOf(service, paymasterId, '0.6')

    const response = await smartAccount.sendTransaction(
      { to: token, data: mint(recipient, 1234n) },
      { paymasterServiceData: { mode: PaymasterMode.SPONSORED } },
    )
    const { transactionHash } = await response.waitForTxHash()
    const receipt = await receiptOf(transactionHash as `0x${string}`)

    expect(receipt.status).toBe('success')
    expect(await tokenBalance(service, token, recipient)).toBe(1234n)
    expect((await service.chain!.publicClient.getCode({ address }))?.length).toBeGreaterThan(2)
    // The account never held ETH: the op can only have been paid by the paymaster.
    expect(await service.chain!.publicClient.getBalance({ address })).toBe(0n)
    const events = readPaymasterEvents(receipt)
    const operation = events.find((e) => e.name === 'UserOperationEvent')!
    const deducted = events.find((e) => e.name === 'GasBalanceDeducted')!
    expect(operation.args.success).toBe(true)
    expect(operation.args.paymaster).toBe(service.chain!.addresses.verifyingPaymaster)
    expect(deducted.args._paymasterId).toBe(paymasterId)
    const tankAfter = await gasTankOf(service, paymasterId, '0.6')
    expect(tankBefore - tankAfter).toBe(deducted.args._charge)
    // What postOp deducts (gas up to postOp + the paymaster's fixed overhead) is within a few percent of the
    // EntryPoint's actualGasCost.
    const charge = deducted.args._charge as bigint
    const actual = operation.args.actualGasCost as bigint
    expect(charge > (actual * 95n) / 100n && charge < (actual * 105n) / 100n).toBe(true)

    const decisions = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}`)
    const decision = decisions.body.data.items[0]
    expect(decision).toMatchObject({
      sponsored: true,
      sender: address,
      mode: 'SPONSORED',
      userOpHash: response.userOpHash,
    })
    expect(decision.steps.map((s: { step: string; outcome: string }) => `${s.step}:${s.outcome}`)).toEqual([
      'dapp:pass',
      'whitelist:pass',
      'limits:pass',
      'estimate:pass',
      'gasTank:pass',
      'webhook:skip',
    ])
  }, 60_000)

  it('answers a non-whitelisted call with paymasterAndData "0x" and gas limits; the user pays and the reason is recorded', async () => {
    const { apiKey, paymasterId, paymasterUrl } = await createDapp(service)
    await registerToken(service, apiKey, ['approve'])
    const { smartAccount, address } = await createBiconomyAccount(service, paymasterUrl)
    await fundEth(service.chain!, address, 10n ** 17n)
    const token = service.chain!.addresses.tokens[0]!.address
    const tankBefore = await gasTankOf(service, paymasterId, '0.6')

    const response = await smartAccount.sendTransaction(
      { to: token, data: mint(randomAddress(), 1n) },
      { paymasterServiceData: { mode: PaymasterMode.SPONSORED } },
    )
    const { transactionHash } = await response.waitForTxHash()
    const operation = readPaymasterEvents(await receiptOf(transactionHash as `0x${string}`)).find(
      (e) => e.name === 'UserOperationEvent',
    )!
    expect(operation.args.paymaster).toBe(zeroAddress)
    expect(operation.args.success).toBe(true)
    expect(await gasTankOf(service, paymasterId, '0.6')).toBe(tankBefore)
    expect(await service.chain!.publicClient.getBalance({ address })).toBeLessThan(10n ** 17n)

    const decisions = await callConsole(
      service,
      `/console/api/sponsorship-decisions?apiKey=${apiKey}&sponsored=false`,
    )
    const decision = decisions.body.data.items[0]
    expect(decision.reason).toBe(
      `mint (0x40c10f19) is not a whitelisted method of tUSDC at ${token} (whitelisted: approve)`,
    )
    expect(decision.paymasterAndData).toBe('0x')
    expect(decision.userOpHash).toBe(response.userOpHash)
    expect(decision.steps.find((s: { step: string }) => s.step === 'gasTank')).toMatchObject({
      outcome: 'skip',
    })
  }, 60_000)

  it('signs the gas limits exactly as sent when calculateGasLimits is false (the SDK estimates with the bundler first)', async () => {
    const { paymasterUrl, paymasterId } = await createDapp(service)
    const { smartAccount } = await createBiconomyAccount(service, paymasterUrl)
    const tankBefore = await gasTankOf(service, paymasterId, '0.6')
    const response = await smartAccount.sendTransaction(
      { to: randomAddress(), value: 0n, data: '0x' },
      { paymasterServiceData: { mode: PaymasterMode.SPONSORED, calculateGasLimits: false } },
    )
    const { transactionHash } = await response.waitForTxHash()
    const receipt = await receiptOf(transactionHash as `0x${string}`)
    expect(receipt.status).toBe('success')
    expect(await gasTankOf(service, paymasterId, '0.6')).toBeLessThan(tankBefore)
  }, 60_000)

  it('lets the SDK fall back to "0x" in pm_getFeeQuoteOrData SPONSORED when the policies reject (non-strict mode)', async () => {
    const { apiKey, paymasterUrl } = await createDapp(service)
    await registerToken(service, apiKey, ['mint'])
    const { smartAccount } = await createBiconomyAccount(service, paymasterUrl)
    const op = await smartAccount.buildUserOp([{ to: randomAddress(), value: 0n, data: '0x' }])
    const paymaster = smartAccount.paymaster as unknown as {
      getPaymasterFeeQuotesOrData: (op: unknown, data: unknown) => Promise<{ paymasterAndData?: string }>
    }
    // The SDK reads its error catalogue from GitHub before it looks at the message; offline that download fails
    // and the dApp sees "fetch failed" (biconomy-protocol.md 2.8). Serve the catalogue as if online.
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
      String(input).startsWith('https://raw.githubusercontent.com/bcnmy/aa-errors/')
        ? new Response(JSON.stringify([{ name: 'Unrelated', regex: 'an error this test never sends' }]))
        : realFetch(input, init)) as typeof fetch
    try {
      const answer = await paymaster.getPaymasterFeeQuotesOrData(op, { mode: PaymasterMode.SPONSORED })
      expect(answer.paymasterAndData).toBe('0x')
    } finally {
      globalThis.fetch = realFetch
    }
  }, 60_000)
})
