import { describe, expect, it } from 'vitest'
import {
  getExchangeRate,
  getTokenAmount,
  toPriceMarkup,
} from '../../../src/main/service/paymaster/tokenPrices'

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
})
