import { zeroAddress } from 'viem'
import { InvalidInputError } from '../errors'
import { createStepLog } from '../policy/createStepLog'
import { generateId } from '../store/ids'
import type { Dapp, Sponsorship } from '../store/schema'
import { SponsorshipRejectedError } from './errors'
import { estimateGasLimits, PLACEHOLDER_SIGNATURE } from './estimateGasLimits'
import { type PaymasterDeps, requireChain } from './paymasterDeps'
import { resolveFeeToken } from './resolveFeeToken'
import { overrideTokenBalance } from './simulationOverrides'
import {
  recordSponsorship,
  requireFees,
  requireGas,
  toGasRecord,
  tryComputeUserOpHash,
} from './sponsorUserOperation'
import {
  encodeTokenPaymasterAndData,
  PriceSource,
  signTokenPaymasterAndData,
  TOKEN_PAYMASTER_UNACCOUNTED_COST,
  type TokenPaymasterFields,
} from './tokenPaymasterAndData'
import { getExchangeRate, getNativeUsdPrice, toPriceMarkup } from './tokenPrices'
import type {
  GasLimits,
  PartialUserOperation,
  PaymasterContext,
  SignableUserOperation,
  SponsorResult,
} from './types'

export type SponsorUserOperationWithTokenParameters = {
  dapp: Dapp
  op: PartialUserOperation
  context: PaymasterContext
  method: string
}

/** verificationGasLimit floor in ERC20 mode: above the paymaster's UNACCOUNTED_COST and enough for its postOp. */
const MIN_TOKEN_VERIFICATION_GAS = 120_000n

/**
 * ERC20 mode: the user pays in `tokenInfo.feeTokenAddress`. Signs token-paymaster paymasterAndData with the
 * token's exchange rate and the dApp's premium as priceMarkup; with calculateGasLimits the limits are
 * re-estimated for the callData as sent (the SDK prepends an approve). The decision is recorded.
 */
export async function sponsorUserOperationWithToken(
  deps: PaymasterDeps,
  params: SponsorUserOperationWithTokenParameters,
): Promise<{ sponsorship: Sponsorship; result: SponsorResult }> {
  const { dapp, op, context } = params
  const chain = requireChain(deps)
  const steps = createStepLog()
  const base = {
    id: generateId(),
    dappId: dapp.id,
    time: new Date().toISOString(),
    method: params.method,
    mode: 'ERC20' as const,
    sender: op.sender,
    nonce: op.nonce.toString(),
    steps: steps.steps,
    paymasterAndData: null,
    gas: null,
    validUntil: null,
    feeToken: null,
    webhookCallId: null,
    userOpHash: null,
  }
  const fail = (err: unknown): never => {
    recordSponsorship(deps, { ...base, sponsored: false, reason: (err as Error).message })
    throw err
  }

  if (!dapp.active) {
    steps.add('dapp', { outcome: 'fail', detail: `dApp "${dapp.name}" is deactivated` })
    return fail(new SponsorshipRejectedError(`dApp "${dapp.name}" is deactivated`))
  }
  steps.add('dapp', { outcome: 'pass', detail: `dApp "${dapp.name}" is active on chain ${dapp.chainId}` })

  let token: ReturnType<typeof resolveFeeToken>
  try {
    token = resolveFeeToken(chain, deps.store, context.feeTokenAddress)
  } catch (err) {
    steps.add('token', { outcome: 'fail', detail: (err as Error).message })
    return fail(err)
  }
  const exchangeRate = getExchangeRate(token, getNativeUsdPrice(deps.store))
  const priceMarkup = toPriceMarkup(dapp.policies.premiumPercentage)
  steps.add('token', {
    outcome: 'pass',
    detail: `${token.symbol} (${token.address}) at ${token.usdPrice} USD: exchangeRate ${exchangeRate} base units per 1e18 wei, priceMarkup ${priceMarkup} (premium ${dapp.policies.premiumPercentage} %)`,
  })

  let fees: ReturnType<typeof requireFees>
  try {
    fees = requireFees(op)
  } catch (err) {
    return fail(err)
  }
  const validUntil = deps.usage.now() + context.expiryDuration
  const tokenFields: TokenPaymasterFields = {
    paymaster: chain.addresses.tokenPaymaster,
    priceSource: PriceSource.externalExchangeRate,
    validUntil,
    validAfter: 0,
    feeToken: token.address,
    oracleAggregator: zeroAddress,
    exchangeRate,
    priceMarkup,
  }
  const sign = (signable: SignableUserOperation) =>
    signTokenPaymasterAndData(signable, {
      ...tokenFields,
      chainId: chain.chainId,
      signer: chain.paymasterSigner,
    })

  let gas: GasLimits
  try {
    if (context.calculateGasLimits) {
      gas = await estimateGasLimits({
        chain,
        op: { ...op, ...fees },
        paymaster: {
          placeholder: encodeTokenPaymasterAndData({ ...tokenFields, signature: PLACEHOLDER_SIGNATURE }),
          sign,
          stateOverride: overrideTokenBalance(token.address, op.sender),
        },
        minVerificationGasLimit: MIN_TOKEN_VERIFICATION_GAS,
      })
      steps.add('estimate', {
        outcome: 'pass',
        detail: `Simulated with the signed token paymasterAndData: callGasLimit ${gas.callGasLimit}, verificationGasLimit ${gas.verificationGasLimit}, preVerificationGas ${gas.preVerificationGas}`,
      })
    } else {
      gas = requireGas(op)
      if (gas.verificationGasLimit <= TOKEN_PAYMASTER_UNACCOUNTED_COST) {
        throw new InvalidInputError(
          `verificationGasLimit must be above ${TOKEN_PAYMASTER_UNACCOUNTED_COST} for the token paymaster`,
        )
      }
      steps.add('estimate', {
        outcome: 'skip',
        detail: "calculateGasLimits is false: the op's own gas limits are signed as given",
      })
    }
  } catch (err) {
    if (!steps.steps.some((s) => s.step === 'estimate')) {
      steps.add('estimate', { outcome: 'fail', detail: (err as Error).message })
    }
    return fail(err)
  }

  const paymasterAndData = await sign({ ...op, ...gas, ...fees })
  const sponsorship = recordSponsorship(deps, {
    ...base,
    userOpHash: tryComputeUserOpHash(chain, op, { ...gas, ...fees }, paymasterAndData),
    sponsored: true,
    reason: null,
    paymasterAndData,
    gas: toGasRecord(gas),
    validUntil,
    feeToken: token.address,
  })
  return { sponsorship, result: { mode: 'ERC20', paymasterAndData, ...gas } }
}
