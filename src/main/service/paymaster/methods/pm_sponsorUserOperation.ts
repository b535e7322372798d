import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { parseParam } from '../../jsonrpc/parseParam'
import { formatHexSponsorResult, formatSponsorResult } from '../formatUserOperation'
import { parseSponsorableOperation, selectEntryPoint } from '../parseSponsorableOperation'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { addressSchema, Erc7677ContextSchema, PaymasterContextSchema } from '../schemas'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'
import type { SponsorResult } from '../types'

/**
 * `pm_sponsorUserOperation` in both shapes clients send:
 * - Biconomy's `(op, ctx)` (spec 4.2): SPONSORED returns the verifying paymaster's paymasterAndData, or "0x" with
 *   gas limits when the policies do not sponsor the op (the user pays; the reason is recorded); ERC20 returns the
 *   token paymaster's for `tokenInfo.feeTokenAddress`. A v0.7/v0.8 operation (by its shape, or `ctx.entryPoint`)
 *   gets that version's paymasters and the ERC-7769 paymaster fields.
 * - Stackup's / Pimlico's / Candide's `(op, entryPoint, ctx?)` (a string second): the same decision, answered as they
 *   answer it, every quantity 0x-hex, and a refusal is an error (those clients have no "0x" fallback).
 */
export function pmSponsorUserOperation(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_sponsorUserOperation',
    params: z.tuple([z.unknown(), z.unknown()]).rest(z.unknown()),
    handler: async (params, ctx) => {
      const dapp = requireDapp(ctx)
      const [raw, second] = params
      const method = 'pm_sponsorUserOperation'
      if (typeof second === 'string') {
        const entryPoint = parseParam(addressSchema, second, 'params[1]')
        const context = parseParam(Erc7677ContextSchema, params[2], 'params[2]')
        const op = parseSponsorableOperation(raw, selectEntryPoint(requireChain(deps), raw, entryPoint))
        if (context.mode === 'ERC20') {
          const { result } = await sponsorUserOperationWithToken(deps, { dapp, op, context, method })
          return toHexResult(result)
        }
        const { sponsorship, result } = await sponsorUserOperation(deps, {
          dapp,
          op,
          context,
          method,
          whenRejected: 'none',
        })
        if (!sponsorship.sponsored) throw rejectSponsorship(sponsorship)
        return toHexResult(result)
      }
      const context = parseParam(PaymasterContextSchema, second, 'params[1]')
      const op = parseSponsorableOperation(raw, selectEntryPoint(requireChain(deps), raw, context.entryPoint))
      const { result } =
        context.mode === 'ERC20'
          ? await sponsorUserOperationWithToken(deps, { dapp, op, context, method })
          : await sponsorUserOperation(deps, { dapp, op, context, method, whenRejected: 'estimate' })
      return formatSponsorResult(result, op.entryPointVersion)
    },
  })
}

/** Pimlico's answer: v0.6 `paymasterAndData`, v0.7+ the four paymaster fields, and the gas limits, all 0x-hex. */
function toHexResult(result: SponsorResult) {
  return {
    ...(result.paymasterFields ? {} : { paymasterAndData: result.paymasterAndData }),
    ...formatHexSponsorResult(result),
  }
}
