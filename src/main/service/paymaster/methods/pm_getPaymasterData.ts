import { defineMethod } from '../../jsonrpc/defineMethod'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'
import type { SponsorResult } from '../types'
import { DEFAULT_ERC7677_CONTEXT, Erc7677ParamsSchema, readErc7677Operation } from './erc7677Params'
import { SPONSOR_INFO } from './pm_getPaymasterStubData'

/**
 * ERC-7677 `pm_getPaymasterData([op, entryPoint, chainId, context])`: the final paymaster data for an op whose gas
 * the client has estimated; its gas values (v0.7+: the paymaster's two limits too) are signed exactly as given.
 * v0.6 answers `paymasterAndData`, v0.7/v0.8 `paymaster` and `paymasterData`. The context is the one
 * pm_sponsorUserOperation takes. A rejected SPONSORED op is a JSON-RPC error (ERC-7677 has no "0x" answer).
 */
export function pmGetPaymasterData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getPaymasterData',
    params: Erc7677ParamsSchema,
    handler: async ([raw, entryPoint, chainId, given], ctx) => {
      const dapp = requireDapp(ctx)
      const op = readErc7677Operation(requireChain(deps), raw, entryPoint, chainId)
      const context = { ...(given ?? DEFAULT_ERC7677_CONTEXT), calculateGasLimits: false }
      const method = 'pm_getPaymasterData'
      if (context.mode === 'ERC20') {
        const { result } = await sponsorUserOperationWithToken(deps, {
          dapp,
          op,
          context: { ...context, feeTokenAddress: context.feeTokenAddress ?? context.preferredToken },
          method,
        })
        return toPaymasterData(result)
      }
      const { sponsorship, result } = await sponsorUserOperation(deps, {
        dapp,
        op,
        context,
        method,
        whenRejected: 'none',
      })
      if (!sponsorship.sponsored) throw rejectSponsorship(sponsorship)
      return toPaymasterData(result)
    },
  })
}

function toPaymasterData(result: SponsorResult) {
  const fields = result.paymasterFields
  if (!fields) return { paymasterAndData: result.paymasterAndData, sponsor: SPONSOR_INFO }
  return { paymaster: fields.paymaster, paymasterData: fields.paymasterData, sponsor: SPONSOR_INFO }
}
