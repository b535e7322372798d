import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { formatSponsorResult } from '../formatUserOperation'
import { getFeeQuotes } from '../getFeeQuotes'
import type { PaymasterDeps } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { PartialUserOperationSchema, PaymasterContextSchema } from '../schemas'
import { sponsorUserOperation } from '../sponsorUserOperation'

/**
 * `pm_getFeeQuoteOrData(op, ctx)` (spec 4.2): ERC20 returns fee quotes per token; SPONSORED returns the sponsor
 * result, or a JSON-RPC error with Biconomy's phrases when the policies reject the op (the SDK's non-strict
 * mode then falls back to paymasterAndData "0x").
 */
export function pmGetFeeQuoteOrData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getFeeQuoteOrData',
    params: z.tuple([PartialUserOperationSchema, PaymasterContextSchema]).rest(z.unknown()),
    handler: async ([op, context], ctx) => {
      const dapp = requireDapp(ctx)
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
      return formatSponsorResult(result)
    },
  })
}
