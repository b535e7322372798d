import { type Address, formatUnits } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import { type GasLimits, type SponsorableOperation, TOKEN_PAYMASTER_UNACCOUNTED_COST } from '../entryPoint'
import { estimateOperation } from './estimateOperation'
import { type PaymasterDeps, requireChain } from './paymasterDeps'
import { getFees } from './sponsorUserOperation'
import {
  getExchangeRate,
  getNativeUsdPrice,
  getTokenAmount,
  listSupportedTokens,
  toPriceMarkup,
} from './tokenPrices'
import type { PaymasterContext } from './types'

/** A fee quote with every field of spec 2.6. */
export type FeeQuote = {
  symbol: string
  decimal: number
  tokenAddress: Address
  /** Whole-token units (the SDK approves ceil(maxGasFee × 10^decimal)). */
  maxGasFee: number
  maxGasFeeUSD: number
  /** Token base units per 1e18 wei. */
  exchangeRate: number
  /** The dApp's premium, percent. */
  premiumPercentage: string
  /** Unix seconds. */
  validUntil: number
  logoUrl: string
}

export type GetFeeQuotesReturnType = {
  paymasterAddress: Address
  feeQuotes: FeeQuote[]
  unsupportedTokens: string[]
}

/** Gas the SDK's approve call adds to callGasLimit, and the token paymaster's validation adds to verification. */
const APPROVE_CALL_GAS = 60_000n
const TOKEN_VALIDATION_GAS = 40_000n
/** paymasterAndData of 278 mostly non-zero bytes and the approve calldata, in preVerificationGas. */
const TOKEN_CALLDATA_GAS = 7_000n

/**
 * ERC20 fee quotes (pm_getFeeQuoteOrData): for each requested supported token, the most the op can cost in
 * that token (gas limits padded for the approve the SDK prepends and the token paymaster's own gas, times
 * maxFeePerGas, at the token's exchange rate with the dApp's premium). `preferredToken` and `tokenList` select
 * tokens (none: every supported token); requested tokens that are not supported go to unsupportedTokens.
 */
export async function getFeeQuotes(
  deps: PaymasterDeps,
  params: { dapp: Dapp; op: SponsorableOperation; context: PaymasterContext },
): Promise<GetFeeQuotesReturnType> {
  const { dapp, op, context } = params
  const chain = requireChain(deps)
  const supported = listSupportedTokens(chain.addresses.tokens, deps.store)
  const requested = [
    ...new Set([context.preferredToken, ...(context.tokenList ?? [])].filter((t): t is string => !!t)),
  ]
  const selected = requested.length === 0 ? supported : []
  const unsupportedTokens: string[] = []
  for (const address of requested) {
    const token = supported.find((t) => t.address.toLowerCase() === address.toLowerCase())
    if (token) selected.push(token)
    else unsupportedTokens.push(address)
  }
  const paymasterAddress = op.paymasterAddress(chain, 'token')
  if (selected.length === 0) return { paymasterAddress, feeQuotes: [], unsupportedTokens }

  const gas = await getQuoteGas(deps, op)
  const maxFeePerGas = op.fees.maxFeePerGas ?? (await chain.publicClient.getGasPrice()) * 2n
  const maxGas =
    gas.callGasLimit +
    APPROVE_CALL_GAS +
    gas.verificationGasLimit +
    TOKEN_VALIDATION_GAS +
    gas.preVerificationGas +
    TOKEN_CALLDATA_GAS +
    TOKEN_PAYMASTER_UNACCOUNTED_COST
  const maxCostWei = maxGas * maxFeePerGas
  const nativeUsd = getNativeUsdPrice(deps.store)
  const priceMarkup = toPriceMarkup(dapp.policies.premiumPercentage)
  const validUntil = deps.usage.now() + context.expiryDuration
  const feeQuotes = selected.map((token): FeeQuote => {
    const exchangeRate = getExchangeRate(token, nativeUsd)
    // One base unit more: the SDK's float round trip must never approve less than the quote.
    const amount = getTokenAmount(maxCostWei, exchangeRate, priceMarkup) + 1n
    const maxGasFee = Number(formatUnits(amount, token.decimals))
    return {
      symbol: token.symbol,
      decimal: token.decimals,
      tokenAddress: token.address,
      maxGasFee,
      maxGasFeeUSD: Number((maxGasFee * Number(token.usdPrice)).toPrecision(12)),
      exchangeRate: Number(exchangeRate),
      premiumPercentage: String(dapp.policies.premiumPercentage),
      validUntil,
      logoUrl: token.logoUrl,
    }
  })
  return { paymasterAddress, feeQuotes, unsupportedTokens }
}

/** The op's own limits (the SDK sends the bundler's estimate), or an estimate without paymaster. */
async function getQuoteGas(deps: PaymasterDeps, op: SponsorableOperation): Promise<GasLimits> {
  const own = op.ownGas
  if (own?.callGasLimit && own.verificationGasLimit && own.preVerificationGas) return own
  return estimateOperation(deps, op, await getFees(deps, op))
}
