import { z } from 'zod'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { formatSponsorResult } from '../formatUserOperation'
import type { PaymasterDeps } from '../paymasterDeps'
import { requireDapp } from '../requireDapp'
import { PartialUserOperationSchema, PaymasterContextSchema } from '../schemas'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'

/**
 * `pm_sponsorUserOperation(op, ctx)` (spec 4.2): SPONSORED returns the verifying paymaster's paymasterAndData,
 * or "0x" with gas limits when the policies do not sponsor the op (the user pays; the reason is recorded).
 * ERC20 returns the token paymaster's paymasterAndData for `tokenInfo.feeTokenAddress`.
 */
export function pmSponsorUserOperation(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_sponsorUserOperation',
    params: z.tuple([PartialUserOperationSchema, PaymasterContextSchema]).rest(z.unknown()),
    handler: async ([op, context], ctx) => {
      const dapp = requireDapp(ctx)
      const method = 'pm_sponsorUserOperation'
      const { result } =
        context.mode === 'ERC20'
          ? await sponsorUserOperationWithToken(deps, { dapp, op, context, method })
          : await sponsorUserOperation(deps, { dapp, op, context, method, whenRejected: 'estimate' })
      return formatSponsorResult(result)
    },
  })
}
