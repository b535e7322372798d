import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { randomAddress } from '../bundler/bundlerTestKit'
import {
  buildSponsorRequestOp,
  callConsole,
  callPaymaster,
  createDapp,
  sponsoredContext,
} from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service?.dispose()
})

describe('pm_getFeeQuoteOrData ERC20 and the paymaster console API', () => {
  it('quotes the preferred token and the token list, reports unsupported tokens, and uses the console prices', async () => {
    const { apiKey } = await createDapp(service)
    const [tUsdc, tDai] = service.chain!.addresses.tokens
    const op = await buildSponsorRequestOp(service)
    const unknown = randomAddress()
    const quote = async () =>
      (
        await callPaymaster(service, apiKey, 'pm_getFeeQuoteOrData', [
          op,
          {
            mode: 'ERC20',
            tokenInfo: { preferredToken: tDai!.address, tokenList: [tUsdc!.address, unknown] },
          },
        ])
      ).body.result
    const first = await quote()
    expect(first).toMatchObject({
      mode: 'ERC20',
      MODE: 'ERC20',
      paymasterAddress: service.chain!.addresses.tokenPaymaster,
      unsupportedTokens: [unknown],
    })
    expect(first.feeQuotes.map((q: { symbol: string }) => q.symbol)).toEqual(['tDAI', 'tUSDC'])
    const usdc = first.feeQuotes[1]
    expect(usdc).toEqual({
      symbol: 'tUSDC',
      decimal: 6,
      tokenAddress: tUsdc!.address,
      maxGasFee: expect.any(Number),
      maxGasFeeUSD: usdc.maxGasFee,
      exchangeRate: 2_000_000_000,
      premiumPercentage: '10',
      validUntil: expect.any(Number),
      logoUrl: expect.stringMatching(/^data:image\/svg\+xml,/),
    })
    expect(usdc.validUntil).toBeGreaterThan(Date.now() / 1000)

    // ETH at 3000 USD and a 25 % premium: the rate follows the price, the quote the premium.
    const priced = await callConsole(service, '/console/api/token-prices', {
      method: 'PUT',
      body: { tokenAddress: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', usdPrice: '3000' },
    })
    expect(priced.body.data.native.usdPrice).toBe('3000')
    await callConsole(service, `/console/api/dapps/${apiKey}/policies`, {
      method: 'PATCH',
      body: { premiumPercentage: 25 },
    })
    const second = (await quote()).feeQuotes[1]
    expect(second).toMatchObject({ exchangeRate: 3_000_000_000, premiumPercentage: '25' })
    expect(second.maxGasFee).toBeGreaterThan(usdc.maxGasFee)
  })

  it('quotes every supported token for an empty list', async () => {
    const { apiKey } = await createDapp(service)
    const op = await buildSponsorRequestOp(service)
    const { body } = await callPaymaster(service, apiKey, 'pm_getFeeQuoteOrData', [
      op,
      { mode: 'ERC20', tokenInfo: { tokenList: [] } },
    ])
    expect(body.result.feeQuotes).toHaveLength(service.chain!.addresses.tokens.length)
    expect(body.result.unsupportedTokens).toEqual([])
  })

  it('shows one decision with its steps, only to its own account', async () => {
    const { apiKey, dapp } = await createDapp(service)
    const op = await buildSponsorRequestOp(service)
    await callPaymaster(service, apiKey, 'pm_sponsorUserOperation', [op, sponsoredContext()])
    const list = await callConsole(service, `/console/api/sponsorship-decisions?apiKey=${apiKey}`)
    expect(list.body.data.items).toHaveLength(1)
    const id = list.body.data.items[0].id
    const one = await callConsole(service, `/console/api/sponsorship-decisions/${id}`)
    expect(one.body.data).toMatchObject({
      id,
      apiKey,
      dappName: dapp.name,
      sender: op.sender,
      nonce: '0',
      sponsored: true,
    })
    expect(one.body.data.gas).toEqual({
      callGasLimit: expect.stringMatching(/^\d+$/),
      verificationGasLimit: expect.stringMatching(/^\d+$/),
      preVerificationGas: expect.stringMatching(/^\d+$/),
    })
    const missing = await callConsole(service, '/console/api/sponsorship-decisions/nope')
    expect(missing).toMatchObject({ status: 404, body: { message: 'Sponsorship decision nope not found' } })
    const tank = await callConsole(service, `/console/api/dapps/${apiKey}/gas-tank`)
    expect(tank.body.data).toMatchObject({
      paymasterId: dapp.paymasterId,
      balanceWei: expect.stringMatching(/^\d+$/),
    })
    const wrongKey = await callConsole(service, '/console/api/dapps/not-a-key/gas-tank')
    expect(wrongKey).toMatchObject({ status: 404, body: { message: 'Paymaster not found for this apiKey' } })
  })
})
