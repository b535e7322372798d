import { z } from 'zod'
import type { Covers } from '../../docs/routeDoc'
import {
  documentVersionForms,
  type EntryPointModule,
  formatHexSponsorResult,
  type SponsorResult,
} from '../../entryPoint'
import { defineMethod, parsedLater } from '../../jsonrpc/defineMethod'
import { parseParam } from '../../schemas/parseParam'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { rejectSponsorship } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { addressSchema, Erc7677ContextSchema, PaymasterContextSchema } from '../schemas'
import { selectEntryPoint } from '../selectEntryPoint'
import { sponsorUserOperation } from '../sponsorUserOperation'
import { sponsorUserOperationWithToken } from '../sponsorUserOperationWithToken'

/** The operation of a paymaster request, documented: v0.6 or v0.7/v0.8 form, gas limits and fees optional. */
export const PaymasterUserOperationParam = parsedLater(
  z.unknown(),
  documentVersionForms((module) => module.partialUserOperationSchema),
).meta({
  title: 'userOperation',
  description:
    "The partial UserOperation in its EntryPoint version's form (its gas limits and fees may be left out)",
})

const hex = z.string().meta({ description: '0x-hex' })
const ModeSchema = z.enum(['SPONSORED', 'ERC20'])

/** ERC-7769's paymaster fields (v0.7+), the paymaster's two limits 0x-hex. */
export const PaymasterFieldsShape = {
  paymaster: z.string(),
  paymasterData: hex,
  paymasterVerificationGasLimit: hex,
  paymasterPostOpGasLimit: hex,
}

/** The sponsor result of spec 2.6 (v0.6) or its ERC-7769 form (v0.7/v0.8); `mode` and `MODE` carry the same. */
export const SponsorResultSchema = z.union([
  z
    .object({
      mode: ModeSchema,
      MODE: ModeSchema,
      paymasterAndData: z.string().meta({ description: '"0x" when the operation is not sponsored' }),
      preVerificationGas: z.string().meta({ description: 'Decimal' }),
      verificationGasLimit: z.number(),
      callGasLimit: z.number(),
    })
    .meta({ description: 'EntryPoint v0.6 (spec 2.6)' }),
  z
    .object({
      mode: ModeSchema,
      MODE: ModeSchema,
      ...z.object(PaymasterFieldsShape).partial().shape,
      preVerificationGas: hex,
      verificationGasLimit: hex,
      callGasLimit: hex,
    })
    .meta({ description: 'EntryPoint v0.7 and v0.8 (no paymaster fields when not sponsored)' }),
])
type _CheckedSponsorResult = Covers<
  typeof SponsorResultSchema,
  ReturnType<EntryPointModule['paymaster']['formatSponsorResult']>
>

/** Pimlico's answer to `(op, entryPoint, ctx?)`: every quantity 0x-hex. */
const HexSponsorResultSchema = z
  .object({
    paymasterAndData: z.string().optional().meta({ description: 'v0.6' }),
    ...z.object(PaymasterFieldsShape).partial().shape,
    preVerificationGas: hex,
    verificationGasLimit: hex,
    callGasLimit: hex,
  })
  .meta({
    description: 'Asked as (userOperation, entryPoint, context?): Pimlico, Stackup and Candide clients',
  })
type _CheckedHexResult = Covers<typeof HexSponsorResultSchema, ReturnType<typeof toHexResult>>

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
    summary:
      "The paymaster's paymasterAndData (and gas limits) for a partial UserOperation, or 0x when not sponsored",
    params: z
      .tuple([
        PaymasterUserOperationParam,
        parsedLater(z.unknown(), PaymasterContextSchema).meta({
          title: 'context',
          description:
            'The paymaster context {mode, ...} (Biconomy). Pimlico, Stackup and Candide send the EntryPoint address ' +
            'here instead, then the context (optional) third',
        }),
      ])
      .rest(z.unknown()),
    result: z.union([SponsorResultSchema, HexSponsorResultSchema]),
    handler: async (params, ctx) => {
      const dapp = requireDapp(ctx)
      const [raw, second] = params
      const method = 'pm_sponsorUserOperation'
      if (typeof second === 'string') {
        const entryPoint = parseParam(addressSchema, second, 'params[1]')
        const context = parseParam(Erc7677ContextSchema, params[2], 'params[2]')
        const op = selectEntryPoint(requireChain(deps), raw, entryPoint).paymaster.bind(raw)
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
      const entryPoint = selectEntryPoint(requireChain(deps), raw, context.entryPoint)
      const op = entryPoint.paymaster.bind(raw)
      const { result } =
        context.mode === 'ERC20'
          ? await sponsorUserOperationWithToken(deps, { dapp, op, context, method })
          : await sponsorUserOperation(deps, { dapp, op, context, method, whenRejected: 'estimate' })
      return entryPoint.paymaster.formatSponsorResult(result)
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
