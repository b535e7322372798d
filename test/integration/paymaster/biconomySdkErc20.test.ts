import { PaymasterMode } from '@biconomy/account'
import { parseUnits } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import { mintToken } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import { proveClientCell } from '../clients/clientMatrix'
import {
  callConsole,
  createBiconomyAccount,
  createDapp,
  readPaymasterEvents,
  tokenBalance,
} from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

describe('Biconomy SDK v4, ERC20 mode (token paymaster)', () => {
  it('quotes with getTokenFees, then sendTransaction with the quote charges the account in the test token', async (context) => {
    proveClientCell(context, {
      client: 'Biconomy SDK v4',
      account: 'Biconomy Smart Account v2',
      entryPoint: '0.6',
      payment: 'ERC20',
    })
    const chain = service.chain!
    const { apiKey, paymasterUrl } = await createDapp(service)
    const tUsdc = chain.addresses.tokens.find((t) => t.symbol === 'tUSDC')!
    const { smartAccount, address } = await createBiconomyAccount(service, paymasterUrl)
    await mintToken(chain, tUsdc.address, address, parseUnits('100', 6))
    const recipient = randomAddress()
    const tx = { to: recipient, value: 0n, data: '0x' as const }

    const fees = await smartAccount.getTokenFees(tx, {
      paymasterServiceData: { mode: PaymasterMode.ERC20, preferredToken: tUsdc.address },
    })
    expect(fees.tokenPaymasterAddress).toBe(chain.addresses.tokenPaymaster)
    const quote = fees.feeQuotes!.find((q) => q.tokenAddress === tUsdc.address)!
    expect(quote).toMatchObject({
      symbol: 'tUSDC',
      decimal: 6,
      premiumPercentage: '10',
      exchangeRate: 2_000_000_000,
    })
    expect(quote.maxGasFee).toBeGreaterThan(0)

    const receiverBefore = await tokenBalance(service, tUsdc.address, chain.addresses.tokenPaymaster)
    const response = await smartAccount.sendTransaction(tx, {
      paymasterServiceData: {
        mode: PaymasterMode.ERC20,
        feeQuote: quote,
        spender: fees.tokenPaymasterAddress!,
      },
    })
    const { transactionHash } = await response.waitForTxHash()
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: transactionHash as `0x${string}` })
    expect(receipt.status).toBe('success')
    const events = readPaymasterEvents(receipt)
    const operation = events.find((e) => e.name === 'UserOperationEvent')!
    const charged = events.find((e) => e.name === 'TokenPaymasterOperation')!
    expect(operation.args).toMatchObject({
      success: true,
      paymaster: chain.addresses.tokenPaymaster,
      sender: address,
    })
    expect(charged.args).toMatchObject({
      sender: address,
      token: tUsdc.address,
      exchangeRate: 2_000_000_000n,
      priceMarkup: 1_100_000,
    })
    const charge = charged.args.totalCharge as bigint
    expect(charge).toBeGreaterThan(0n)
    // Never more than the quote the SDK approved.
    expect(charge).toBeLessThanOrEqual(BigInt(Math.ceil(quote.maxGasFee * 10 ** quote.decimal)))
    expect(await tokenBalance(service, tUsdc.address, address)).toBe(parseUnits('100', 6) - charge)
    expect(await tokenBalance(service, tUsdc.address, chain.addresses.tokenPaymaster)).toBe(
      receiverBefore + charge,
    )
    expect(await chain.publicClient.getBalance({ address })).toBe(0n)

    const decisions = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}`)
    expect(decisions.body.data.items[0]).toMatchObject({
      mode: 'ERC20',
      sponsored: true,
      feeToken: tUsdc.address,
      userOpHash: response.userOpHash,
    })
  }, 60_000)

  it('lists every supported token for an empty token list and reports unsupported ones', async () => {
    const chain = service.chain!
    const { paymasterUrl } = await createDapp(service)
    const { smartAccount } = await createBiconomyAccount(service, paymasterUrl)
    const supported = await smartAccount.getSupportedTokens()
    expect(supported.map((t) => t.symbol).sort()).toEqual(chain.addresses.tokens.map((t) => t.symbol).sort())
    for (const token of supported)
      expect(token).toMatchObject({
        premiumPercentage: '10',
        logoUrl: expect.stringMatching(/^data:image\/svg\+xml,/),
      })
  }, 60_000)
})
