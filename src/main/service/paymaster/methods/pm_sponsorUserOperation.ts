import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { formatSponsorResult } from '../formatUserOperation'
import { parseSponsorableOperation, selectEntryPoint } from '../parseSponsorableOperation'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { requireDapp } from '../requireDapp'
import { PaymasterContextSchema } from '../schemas'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'

/**
 * `pm_sponsorUserOperation(op, ctx)` (spec 4.2): SPONSORED returns the verifying paymaster's paymasterAndData,
 * or "0x" with gas limits when the policies do not sponsor the op (the user pays; the reason is recorded).
 * ERC20 returns the token paymaster's paymasterAndData for `tokenInfo.feeTokenAddress`. A v0.7/v0.8 operation
 * (by its shape, or `ctx.entryPoint`) gets that version's paymasters and the ERC-7769 paymaster fields.
 */
export function pmSponsorUserOperation(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_sponsorUserOperation',
    params: z.tuple([z.unknown(), PaymasterContextSchema]).rest(z.unknown()),
    handler: async ([raw, context], ctx) => {
      const dapp = requireDapp(ctx)
      const op = parseSponsorableOperation(raw, selectEntryPoint(requireChain(deps), raw, context.entryPoint))
      const method = 'pm_sponsorUserOperation'
      const { result } =
        context.mode === 'ERC20'
          ? await sponsorUserOperationWithToken(deps, { dapp, op, context, method })
          : await sponsorUserOperation(deps, { dapp, op, context, method, whenRejected: 'estimate' })
      return formatSponsorResult(result, op.entryPointVersion)
    },
  })
}
