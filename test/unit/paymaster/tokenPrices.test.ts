import { describe, expect, it } from 'vitest'
import {
  checkUsdPrice,
  getExchangeRate,
  getTokenAmount,
  NATIVE_TOKEN_ADDRESS,
  readPriceTable,
  toPriceMarkup,
} from '../../../src/main/service/paymaster/tokenPrices'

const tUSDC = {
  name: 'Test USDC',
  symbol: 'tUSDC',
  decimals: 6,
  address: '0x752fAc4b6F12E83c8be5571d2CDE2c00aEe1855C' as const,
}
const tDAI = {
  name: 'Test DAI',
  symbol: 'tDAI',
  decimals: 18,
  address: '0x1111111111111111111111111111111111111111' as const,
}
const price = (tokenAddress: string, usdPrice: string) => ({ tokenAddress, usdPrice, logoUrl: null })

describe('token prices', () => {
  it('gives the exchange rate in token base units per 1e18 wei: 2000 USD ETH, 1 USD tUSDC (6 decimals) → 2e9', () => {
    expect(getExchangeRate({ decimals: 6, usdPrice: '1' }, '2000')).toBe(2_000_000_000n)
  })

  it('scales the rate by the token decimals and its price (18 decimals, 0.5 USD → 4000e18)', () => {
    expect(getExchangeRate({ decimals: 18, usdPrice: '1' }, '2000')).toBe(2000n * 10n ** 18n)
    expect(getExchangeRate({ decimals: 18, usdPrice: '0.5' }, '2000')).toBe(4000n * 10n ** 18n)
    expect(getExchangeRate({ decimals: 6, usdPrice: '1.25' }, '2500.5')).toBe(2_000_400_000n)
  })

  it('charges what the token paymaster charges: (wei × rate / 1e18) × markup / 1e6', () => {
    // 0.001 ETH at 2000 USDC/ETH with 10 % premium = 2.2 tUSDC
    expect(getTokenAmount(10n ** 15n, 2_000_000_000n, 1_100_000)).toBe(2_200_000n)
  })

  it('turns the premium percentage into the paymaster priceMarkup, clamped to 1e6..2e6', () => {
    expect(toPriceMarkup(0)).toBe(1_000_000)
    expect(toPriceMarkup(10)).toBe(1_100_000)
    expect(toPriceMarkup(12.5)).toBe(1_125_000)
    expect(toPriceMarkup(100)).toBe(2_000_000)
  })

  it('holds prices from 1e-9 to 1e12 USD with at most 18 decimals, and says so for others', () => {
    for (const ok of ['1', '0.5', '2000', '0.000000001', '1000000000000', '0001.500000000000000000'])
      expect(checkUsdPrice(ok)).toBeNull()
    expect(checkUsdPrice('0.0000000000000000001')).toMatch(
      /at most 13 digits before the point and 18 after it/,
    )
    expect(checkUsdPrice(`1${'0'.repeat(400)}`)).toMatch(/at most 13 digits/)
    expect(checkUsdPrice('0.0000000001')).toBe('must be between 0.000000001 and 1000000000000 USD')
    expect(checkUsdPrice('1000000000001')).toBe('must be between 0.000000001 and 1000000000000 USD')
    expect(checkUsdPrice('0')).toBe('must be between 0.000000001 and 1000000000000 USD')
    for (const bad of ['-1', '1e-7', 'abc', '', '1.', '.5']) expect(checkUsdPrice(bad)).not.toBeNull()
  })

  it('reads a stored price an older version accepted as if it were not set (the default holds)', () => {
    const table = readPriceTable(
      [tUSDC, tDAI],
      [
        price(tUSDC.address, '0.0000000000000000001'),
        price(tDAI.address, `1${'0'.repeat(400)}`),
        price(NATIVE_TOKEN_ADDRESS, '0'),
      ],
    )
    expect(table.nativeUsdPrice).toBe('2000')
    expect(table.tokens.map((t) => [t.symbol, t.usdPrice])).toEqual([
      ['tUSDC', '1'],
      ['tDAI', '1'],
    ])
    expect(table.unquotable).toEqual([])
  })

  it('lists a token whose exchange rate rounds to 0 at these prices as unquotable, never quotes it', () => {
    const table = readPriceTable(
      [tUSDC, tDAI],
      [price(NATIVE_TOKEN_ADDRESS, '0.000000001'), price(tUSDC.address, '1000')],
    )
    expect(getExchangeRate({ decimals: 6, usdPrice: '1000' }, '0.000000001')).toBe(0n)
    expect(table.unquotable).toEqual(['tUSDC'])
    expect(table.tokens.map((t) => t.symbol)).toEqual(['tDAI'])
    expect(getExchangeRate(table.tokens[0]!, table.nativeUsdPrice)).toBe(10n ** 9n)
  })
})
