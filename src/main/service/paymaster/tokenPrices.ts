import { type Address, getAddress, parseUnits } from 'viem'
import type { TokenInfo } from '../chain'
import type { Store } from '../store/openStore'

/** Stands for the native coin in the price table (the usual 0xEeee... convention). */
export const NATIVE_TOKEN_ADDRESS: Address = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE'

/** Offline defaults (USD per whole unit) until the console sets prices. */
export const DEFAULT_USD_PRICES: { native: string; bySymbol: Record<string, string> } = {
  native: '2000',
  bySymbol: { tUSDC: '1', tDAI: '1', USDC: '1', DAI: '1', USDT: '1' },
}

/** A fee token the token paymaster accepts, with its price. */
export type SupportedToken = TokenInfo & {
  /** USD per whole token. */
  usdPrice: string
  logoUrl: string
}

const PRICE_DECIMALS = 18

/** The price table: the chain's test tokens, priced from the store or the defaults. */
export function listSupportedTokens(tokens: TokenInfo[], store: Store): SupportedToken[] {
  const overrides = new Map(store.data.tokenPrices.map((p) => [p.tokenAddress.toLowerCase(), p]))
  const out: SupportedToken[] = []
  for (const token of tokens) {
    const override = overrides.get(token.address.toLowerCase())
    const usdPrice = override?.usdPrice ?? DEFAULT_USD_PRICES.bySymbol[token.symbol]
    if (usdPrice === undefined || Number(usdPrice) <= 0) continue
    out.push({
      ...token,
      address: getAddress(token.address),
      usdPrice,
      logoUrl: override?.logoUrl ?? defaultLogoUrl(token.symbol),
    })
  }
  return out
}

/** USD per 1 ETH (the chain's native coin) from the store or the default. */
export function getNativeUsdPrice(store: Store): string {
  const override = store.data.tokenPrices.find(
    (p) => p.tokenAddress.toLowerCase() === NATIVE_TOKEN_ADDRESS.toLowerCase(),
  )
  return override?.usdPrice ?? DEFAULT_USD_PRICES.native
}

/**
 * Exchange rate of the token paymaster: token base units per 1e18 wei (one whole native coin),
 * = nativeUsd / tokenUsd × 10^decimals, rounded down.
 */
export function getExchangeRate(
  token: Pick<SupportedToken, 'decimals' | 'usdPrice'>,
  nativeUsdPrice: string,
): bigint {
  const native = parseUnits(nativeUsdPrice, PRICE_DECIMALS)
  const price = parseUnits(token.usdPrice, PRICE_DECIMALS)
  if (price === 0n) throw new Error('token price must be positive')
  return (native * 10n ** BigInt(token.decimals)) / price
}

/** Token base units for `wei` at `exchangeRate` with `priceMarkup` (1e6 = none), as the token paymaster charges. */
export function getTokenAmount(wei: bigint, exchangeRate: bigint, priceMarkup: number): bigint {
  return (((wei * exchangeRate) / 10n ** 18n) * BigInt(priceMarkup)) / 1_000_000n
}

/** priceMarkup of the token paymaster for a premium in percent (10 → 1_100_000), within 1e6..2e6. */
export function toPriceMarkup(premiumPercentage: number): number {
  const markup = 1_000_000 + Math.round(premiumPercentage * 10_000)
  return Math.min(2_000_000, Math.max(1_000_000, markup))
}

/** A small inline SVG badge: a URL that works offline. */
export function defaultLogoUrl(symbol: string): string {
  const text = symbol.replace(/[^A-Za-z0-9]/g, '').slice(0, 5)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="32" fill="#2f6fed"/><text x="32" y="38" font-family="sans-serif" font-size="14" fill="#fff" text-anchor="middle">${text}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}
