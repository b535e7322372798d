import { numberToHex } from 'viem'
import { z } from 'zod'
import type { Covers } from '../../docs/routeDoc'
import { formatPaymasterFields, type SponsorResult } from '../../entryPoint'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'
import {
  DEFAULT_ERC7677_CONTEXT,
  Erc7677ParamsSchema,
  Erc7677PaymasterShape,
  readErc7677Operation,
} from './erc7677Params'
import { SPONSOR_INFO } from './pm_getPaymasterStubData'

const hex = z.string().meta({ description: '0x-hex' })

/** The signed paymaster part, and the gas limits it signed when the paymaster calculated them. */
const PaymasterDataSchema = z.object({
  ...Erc7677PaymasterShape,
  callGasLimit: hex.optional(),
  verificationGasLimit: hex.optional(),
  preVerificationGas: hex.optional(),
})
type _CheckedPaymasterData = Covers<typeof PaymasterDataSchema, ReturnType<typeof toPaymasterData>>

/**
 * ERC-7677 `pm_getPaymasterData([op, entryPoint, chainId, context])`: the final paymaster data. The context is the
 * one pm_sponsorUserOperation takes. An op whose gas the client has estimated (ERC-7677's flow, after stub data) has
 * its gas values (v0.7+: the paymaster's two limits too) signed exactly as given. An op that carries none, sent with
 * `calculateGasLimits` (the default), has them calculated and signed, as Biconomy's paymaster does for clients that
 * ask for no stub data (@biconomy/abstractjs). The answer carries every value signed: v0.6 `paymasterAndData`,
 * v0.7/v0.8 `paymaster`, `paymasterData` and the paymaster's two limits; calculated limits too. A rejected
 * SPONSORED op is a JSON-RPC error (ERC-7677 has no "0x" answer). v0.9, for an operation with a `paymasterSignature`
 * field: the signature comes in `paymasterSignature`, paymasterData as the stub answered it (the window the operation
 * carries is signed again), so an account signature made after the stub data stays valid.
 */
export function pmGetPaymasterData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getPaymasterData',
    summary:
      'ERC-7677: the final, signed paymaster data (and the gas limits it signed, when it calculated them)',
    params: Erc7677ParamsSchema,
    result: PaymasterDataSchema,
    handler: async ([raw, entryPoint, chainId, given], ctx) => {
      const dapp = requireDapp(ctx)
      const op = readErc7677Operation(requireChain(deps), raw, entryPoint, chainId)
      const asked = given ?? DEFAULT_ERC7677_CONTEXT
      const context = { ...asked, calculateGasLimits: asked.calculateGasLimits && !op.carriesGasLimits }
      const method = 'pm_getPaymasterData'
      if (context.mode === 'ERC20') {
        const { result } = await sponsorUserOperationWithToken(deps, {
          dapp,
          op,
          context: { ...context, feeTokenAddress: context.feeTokenAddress ?? context.preferredToken },
          method,
        })
        return toPaymasterData(result, context.calculateGasLimits)
      }
      const { sponsorship, result } = await sponsorUserOperation(deps, {
        dapp,
        op,
        context,
        method,
        whenRejected: 'none',
      })
      if (!sponsorship.sponsored) throw rejectSponsorship(sponsorship)
      return toPaymasterData(result, context.calculateGasLimits)
    },
  })
}

/** The signed paymaster part, with the limits it signed when the paymaster calculated them. */
function toPaymasterData(result: SponsorResult, calculated: boolean) {
  const paymaster = result.paymasterFields
    ? formatPaymasterFields(result.paymasterFields)
    : { paymasterAndData: result.paymasterAndData }
  const gas = calculated
    ? {
        callGasLimit: numberToHex(result.callGasLimit),
        verificationGasLimit: numberToHex(result.verificationGasLimit),
        preVerificationGas: numberToHex(result.preVerificationGas),
      }
    : {}
  return { ...paymaster, ...gas, sponsor: SPONSOR_INFO }
}
