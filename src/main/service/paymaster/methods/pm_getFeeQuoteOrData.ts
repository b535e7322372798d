import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { formatSponsorResult } from '../formatUserOperation'
import { getFeeQuotes } from '../getFeeQuotes'
import { parseSponsorableOperation, selectEntryPoint } from '../parseSponsorableOperation'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { PaymasterContextSchema } from '../schemas'
import { sponsorUserOperation } from '../sponsorUserOperation'

/**
 * `pm_getFeeQuoteOrData(op, ctx)` (spec 4.2): ERC20 returns fee quotes per token; SPONSORED returns the sponsor
 * result, or a JSON-RPC error with Biconomy's phrases when the policies reject the op (the SDK's non-strict
 * mode then falls back to paymasterAndData "0x"). Every EntryPoint version, as pm_sponsorUserOperation.
 */
export function pmGetFeeQuoteOrData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getFeeQuoteOrData',
    params: z.tuple([z.unknown(), PaymasterContextSchema]).rest(z.unknown()),
    handler: async ([raw, context], ctx) => {
      const dapp = requireDapp(ctx)
      const op = parseSponsorableOperation(raw, selectEntryPoint(requireChain(deps), raw, context.entryPoint))
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
      return formatSponsorResult(result, op.entryPointVersion)
    },
  })
}
