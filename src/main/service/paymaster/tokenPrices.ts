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

/**
 * The prices the table holds (USD per whole unit): a decimal number with at most 18 decimals, from 1e-9 to 1e12.
 * Past them the quotes stop meaning anything (a price that rounds to 0 has no exchange rate; a 400-digit one makes
 * every rate 0).
 */
export const USD_PRICE_RANGE = { min: '0.000000001', max: '1000000000000' } as const

const MIN_PRICE = parseUnits(USD_PRICE_RANGE.min, PRICE_DECIMALS)
const MAX_PRICE = parseUnits(USD_PRICE_RANGE.max, PRICE_DECIMALS)

/** Why `usdPrice` is not a price the table can hold (a sentence to follow "usdPrice "), or null when it is one. */
export function checkUsdPrice(usdPrice: string): string | null {
  if (!/^\d{1,13}(\.\d{1,18})?$/.test(usdPrice))
    return 'must be a positive decimal number with at most 13 digits before the point and 18 after it'
  const value = parseUnits(usdPrice, PRICE_DECIMALS)
  if (value < MIN_PRICE || value > MAX_PRICE)
    return `must be between ${USD_PRICE_RANGE.min} and ${USD_PRICE_RANGE.max} USD`
  return null
}

/** A stored price override, read back only when it is a price the table can hold (older versions checked less). */
function readStoredPrice(price: { usdPrice: string } | undefined): string | undefined {
  return price && checkUsdPrice(price.usdPrice) === null ? price.usdPrice : undefined
}

type PriceOverride = { tokenAddress: string; usdPrice: string; logoUrl: string | null }

/**
 * The price table from the overrides (the store's, or those a change would leave): the native coin's price and the
 * chain's test tokens with theirs. A token whose exchange rate at these prices rounds down to 0 base units per
 * 1e18 wei (a quote would make its gas free) is listed in `unquotable` instead.
 */
export function readPriceTable(
  tokens: TokenInfo[],
  overrides: readonly PriceOverride[],
): { nativeUsdPrice: string; tokens: SupportedToken[]; unquotable: string[] } {
  const byAddress = new Map(overrides.map((p) => [p.tokenAddress.toLowerCase(), p]))
  const nativeUsdPrice =
    readStoredPrice(byAddress.get(NATIVE_TOKEN_ADDRESS.toLowerCase())) ?? DEFAULT_USD_PRICES.native
  const out: SupportedToken[] = []
  const unquotable: string[] = []
  for (const token of tokens) {
    const override = byAddress.get(token.address.toLowerCase())
    const usdPrice = readStoredPrice(override) ?? DEFAULT_USD_PRICES.bySymbol[token.symbol]
    if (usdPrice === undefined) continue
    if (getExchangeRate({ decimals: token.decimals, usdPrice }, nativeUsdPrice) === 0n) {
      unquotable.push(token.symbol)
      continue
    }
    out.push({
      ...token,
      address: getAddress(token.address),
      usdPrice,
      logoUrl: override?.logoUrl ?? defaultLogoUrl(token.symbol),
    })
  }
  return { nativeUsdPrice, tokens: out, unquotable }
}

/** The price table: the chain's test tokens that can be quoted, priced from the store or the defaults. */
export function listSupportedTokens(tokens: TokenInfo[], store: Store): SupportedToken[] {
  return readPriceTable(tokens, store.data.tokenPrices).tokens
}

/** USD per 1 ETH (the chain's native coin) from the store or the default. */
export function getNativeUsdPrice(store: Store): string {
  return readPriceTable([], store.data.tokenPrices).nativeUsdPrice
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
  if (price === 0n) return 0n
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
