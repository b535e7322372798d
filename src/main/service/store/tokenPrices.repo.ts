import { getAddress } from 'viem'
import type { Store } from './openStore'
import type { TokenPrice } from './schema'

export function listTokenPrices(store: Store): TokenPrice[] {
  return store.data.tokenPrices
}

/** Sets (or replaces) the USD price of a token; `logoUrl` undefined keeps the previous one. */
export async function setTokenPrice(
  store: Store,
  params: { tokenAddress: string; usdPrice: string; logoUrl?: string | null },
  now = new Date(),
): Promise<TokenPrice> {
  const tokenAddress = getAddress(params.tokenAddress)
  return store.update((doc) => {
    const existing = doc.tokenPrices.find((p) => p.tokenAddress.toLowerCase() === tokenAddress.toLowerCase())
    const price: TokenPrice = {
      tokenAddress,
      usdPrice: params.usdPrice,
      logoUrl: params.logoUrl === undefined ? (existing?.logoUrl ?? null) : params.logoUrl,
      updatedAt: now.toISOString(),
    }
    doc.tokenPrices = doc.tokenPrices.filter((p) => p !== existing)
    doc.tokenPrices.push(price)
    return price
  })
}
