import type { Address } from 'viem'
import { z } from 'zod'
import { formatPaymasterFields, type PaymasterChoice } from '../../entryPoint'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { createStepLog } from '../../policy/createStepLog'
import { evaluatePolicies } from '../../policy/evaluatePolicies'
import { chooseSponsorshipWindow, chooseValidity } from '../chooseValidity'
import { SponsorshipRejectedError } from '../errors'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { NO_POLICIES_WERE_SET } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { resolveFeeToken } from '../resolveFeeToken'
import { getExchangeRate, getNativeUsdPrice, toPriceMarkup } from '../tokenPrices'
import {
  DEFAULT_ERC7677_CONTEXT,
  Erc7677ParamsSchema,
  Erc7677PaymasterShape,
  readErc7677Operation,
} from './erc7677Params'

/** Shown by wallets that display ERC-7677 sponsor info. */
export const SPONSOR_INFO = { name: 'Opstation' } as const

/**
 * ERC-7677 `pm_getPaymasterStubData([op, entryPoint, chainId, context])`: paymaster data of the final length for
 * gas estimation (v0.6 `paymasterAndData`; v0.7/v0.8 `paymaster`, `paymasterData` and the paymaster's two gas
 * limits, which the final data signs as the client sends them). Its signature is well-formed but over other values, so validation does not
 * revert (it returns SIG_VALIDATION_FAILED). v0.9, for an operation with a `paymasterSignature` field: the final
 * paymasterData (its window is kept by pm_getPaymasterData) and the stub signature in `paymasterSignature`, which the
 * userOpHash leaves out, so the account may sign now. SPONSORED runs the policy steps that need only the partial op
 * (dApp, whitelist, limits) and rejects early.
 */
export function pmGetPaymasterStubData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getPaymasterStubData',
    summary:
      'ERC-7677: paymaster data of the final length for gas estimation (not signed over the final values)',
    params: Erc7677ParamsSchema,
    result: z.object({ ...Erc7677PaymasterShape, isFinal: z.literal(false) }),
    handler: async ([raw, entryPoint, chainId, given], ctx) => {
      const context = given ?? DEFAULT_ERC7677_CONTEXT
      const dapp = requireDapp(ctx)
      const chain = requireChain(deps)
      const op = readErc7677Operation(chain, raw, entryPoint, chainId)
      const now = deps.usage.now()
      let choice: PaymasterChoice
      if (context.mode === 'ERC20') {
        const token = resolveFeeToken(chain, deps.store, context.feeTokenAddress ?? context.preferredToken)
        choice = {
          kind: 'token',
          feeToken: token.address,
          exchangeRate: getExchangeRate(token, getNativeUsdPrice(deps.store)),
          priceMarkup: toPriceMarkup(dapp.policies.premiumPercentage),
          ...chooseValidity(chain, op, 'token', now, now + context.expiryDuration),
        }
      } else {
        const steps = createStepLog()
        if (!(await evaluatePolicies({ ...deps, chain, dapp, op, steps }))) {
          const reason = steps.failure()?.detail ?? 'Not sponsored'
          throw new SponsorshipRejectedError(
            `Not sponsored: ${reason}. ${NO_POLICIES_WERE_SET} that allow sponsoring this UserOperation`,
            {
              data: { step: steps.failure()?.step ?? null, reason },
            },
          )
        }
        if (!dapp.paymasterId) {
          throw new SponsorshipRejectedError('Not sponsored: the dApp has no gas tank yet (no paymasterId)')
        }
        const { validUntil, validAfter } = await chooseSponsorshipWindow({
          chain,
          policies: dapp.policies,
          op,
          now,
          expiryDuration: context.expiryDuration,
        })
        choice = { kind: 'verifying', paymasterId: dapp.paymasterId as Address, validUntil, validAfter }
      }
      const stub = await op.stub(chain, choice)
      const data = stub.fields
        ? formatPaymasterFields(stub.fields)
        : { paymasterAndData: stub.paymasterAndData }
      return { ...data, sponsor: SPONSOR_INFO, isFinal: false }
    },
  })
}
