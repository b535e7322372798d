import { z } from 'zod'
import type { Covers } from '../../docs/routeDoc'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { type FeeQuote, getFeeQuotes } from '../getFeeQuotes'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { PaymasterContextSchema } from '../schemas'
import { selectEntryPoint } from '../selectEntryPoint'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { PaymasterUserOperationParam, SponsorResultSchema } from './pm_sponsorUserOperation'

/** A fee quote of spec 2.6. */
const FeeQuoteSchema = z.object({
  symbol: z.string(),
  decimal: z.number().int().meta({ description: 'The token decimals' }),
  tokenAddress: z.string(),
  maxGasFee: z.number().meta({ description: 'Whole tokens' }),
  maxGasFeeUSD: z.number(),
  exchangeRate: z.number().meta({ description: 'Token base units per 1e18 wei' }),
  premiumPercentage: z.string(),
  validUntil: z.number().int().meta({ description: 'Unix seconds' }),
  logoUrl: z.string(),
})
type _CheckedFeeQuote = Covers<typeof FeeQuoteSchema, FeeQuote>

/** The ERC20 answer: quotes per supported token. */
const FeeQuotesSchema = z
  .object({
    mode: z.literal('ERC20'),
    MODE: z.literal('ERC20'),
    paymasterAddress: z.string().meta({ description: 'The token paymaster' }),
    feeQuotes: z.array(FeeQuoteSchema),
    unsupportedTokens: z.array(z.string()),
  })
  .meta({ description: 'ERC20 mode: a quote per supported token of tokenInfo' })

/**
 * `pm_getFeeQuoteOrData(op, ctx)` (spec 4.2): ERC20 returns fee quotes per token; SPONSORED returns the sponsor
 * result, or a JSON-RPC error with Biconomy's phrases when the policies reject the op (the SDK's non-strict
 * mode then falls back to paymasterAndData "0x"). Every EntryPoint version, as pm_sponsorUserOperation.
 */
export function pmGetFeeQuoteOrData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getFeeQuoteOrData',
    summary:
      'ERC20: fee quotes per token; SPONSORED: the sponsor result, or an error when the policies refuse',
    params: z
      .tuple([
        PaymasterUserOperationParam,
        PaymasterContextSchema.meta({
          title: 'context',
          description: 'The paymaster context; mode is required',
        }),
      ])
      .rest(z.unknown()),
    result: z.union([FeeQuotesSchema, SponsorResultSchema]),
    handler: async ([raw, context], ctx) => {
      const dapp = requireDapp(ctx)
      const entryPoint = selectEntryPoint(requireChain(deps), raw, context.entryPoint)
      const op = entryPoint.paymaster.bind(raw)
      if (context.mode === 'ERC20') {
        const quotes = await getFeeQuotes(deps, { dapp, op, context })
        return { mode: 'ERC20', MODE: 'ERC20', ...quotes }
      }
      const { sponsorship, result } = await sponsorUserOperation(deps, {
        dapp,
        op,
        context,
        method: 'pm_getFeeQuoteOrData',
        whenRejected: 'none',
      })
      if (!sponsorship.sponsored) throw rejectSponsorship(sponsorship)
      return entryPoint.paymaster.formatSponsorResult(result)
    },
  })
}
