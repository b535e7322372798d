import { type Address, type Hex, zeroAddress } from 'viem'
import { defineMethod } from '../../jsonrpc/defineMethod'
import { createStepLog } from '../../policy/createStepLog'
import { evaluatePolicies } from '../../policy/evaluatePolicies'
import { SponsorshipRejectedError } from '../errors'
import { type PaymasterDeps, requireChain } from '../paymasterDeps'
import { NO_POLICIES_WERE_SET } from '../rejectSponsorship'
import { requireDapp } from '../requireDapp'
import { resolveFeeToken } from '../resolveFeeToken'
import { PriceSource, signTokenPaymasterAndData } from '../tokenPaymasterAndData'
import { getExchangeRate, getNativeUsdPrice, toPriceMarkup } from '../tokenPrices'
import type { SignableUserOperation } from '../types'
import { signVerifyingPaymasterAndData } from '../verifyingPaymasterAndData'
import { assertErc7677Target, DEFAULT_ERC7677_CONTEXT, Erc7677ParamsSchema } from './erc7677Params'

/** Shown by wallets that display ERC-7677 sponsor info. */
export const SPONSOR_INFO = { name: 'Opstation' } as const

/**
 * ERC-7677 `pm_getPaymasterStubData([op, entryPoint, chainId, context])`: a paymasterAndData of the final
 * length for gas estimation. Its signature is well-formed but over other values, so validation does not
 * revert (it returns SIG_VALIDATION_FAILED). SPONSORED runs the policy steps that need only the partial op
 * (dApp, whitelist, limits) and rejects early.
 */
export function pmGetPaymasterStubData(deps: PaymasterDeps) {
  return defineMethod({
    name: 'pm_getPaymasterStubData',
    params: Erc7677ParamsSchema,
    handler: async ([op, entryPoint, chainId, given], ctx) => {
      const context = given ?? DEFAULT_ERC7677_CONTEXT
      const dapp = requireDapp(ctx)
      const chain = requireChain(deps)
      assertErc7677Target(chain, entryPoint, chainId)
      const stubOp: SignableUserOperation = {
        ...op,
        callGasLimit: 0n,
        verificationGasLimit: 0n,
        preVerificationGas: 0n,
        maxFeePerGas: 0n,
        maxPriorityFeePerGas: 0n,
      }
      const validUntil = deps.usage.now() + context.expiryDuration
      let paymasterAndData: Hex
      if (context.mode === 'ERC20') {
        const token = resolveFeeToken(chain, deps.store, context.feeTokenAddress ?? context.preferredToken)
        paymasterAndData = await signTokenPaymasterAndData(stubOp, {
          paymaster: chain.addresses.tokenPaymaster,
          priceSource: PriceSource.externalExchangeRate,
          validUntil,
          validAfter: 0,
          feeToken: token.address,
          oracleAggregator: zeroAddress,
          exchangeRate: getExchangeRate(token, getNativeUsdPrice(deps.store)),
          priceMarkup: toPriceMarkup(dapp.policies.premiumPercentage),
          chainId: chain.chainId,
          signer: chain.paymasterSigner,
        })
      } else {
        const steps = createStepLog()
        if (!(await evaluatePolicies({ store: deps.store, usage: deps.usage, dapp, op, steps }))) {
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
        paymasterAndData = await signVerifyingPaymasterAndData(stubOp, {
          paymaster: chain.addresses.verifyingPaymaster,
          paymasterId: dapp.paymasterId as Address,
          validUntil,
          validAfter: 0,
          chainId: chain.chainId,
          signer: chain.paymasterSigner,
        })
      }
      return { paymasterAndData, sponsor: SPONSOR_INFO, isFinal: false }
    },
  })
}
