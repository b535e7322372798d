import { defineMethod } from '../../jsonrpc/defineMethod'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'
import { assertErc7677Target, DEFAULT_ERC7677_CONTEXT, Erc7677ParamsSchema } from './erc7677Params'
import { SPONSOR_INFO } from './pm_getPaymasterStubData'

/**
 * ERC-7677 `pm_getPaymasterData([op, entryPoint, chainId, context])`: the final paymasterAndData for an op
 * whose gas the client has estimated; its gas values are signed exactly as given. The context is the one
 * pm_sponsorUserOperation takes. A rejected SPONSORED op is a JSON-RPC error (ERC-7677 has no "0x" answer).
 */
export function pmGetPaymasterData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getPaymasterData',
    params: Erc7677ParamsSchema,
    handler: async ([op, entryPoint, chainId, given], ctx) => {
      const dapp = requireDapp(ctx)
      assertErc7677Target(requireChain(deps), entryPoint, chainId)
      const context = { ...(given ?? DEFAULT_ERC7677_CONTEXT), calculateGasLimits: false }
      const method = 'pm_getPaymasterData'
      if (context.mode === 'ERC20') {
        const { result } = await sponsorUserOperationWithToken(deps, {
          dapp,
          op,
          context: { ...context, feeTokenAddress: context.feeTokenAddress ?? context.preferredToken },
          method,
        })
        return { paymasterAndData: result.paymasterAndData, sponsor: SPONSOR_INFO }
      }
      const { sponsorship, result } = await sponsorUserOperation(deps, {
        dapp,
        op,
        context,
        method,
        whenRejected: 'none',
      })
      if (!sponsorship.sponsored) throw rejectSponsorship(sponsorship)
      return { paymasterAndData: result.paymasterAndData, sponsor: SPONSOR_INFO }
    },
  })
}
