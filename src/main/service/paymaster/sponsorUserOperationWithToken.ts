import type { Dapp } from '../../../shared/api/dapps'
import type { Sponsorship } from '../../../shared/api/sponsorships'
import type { Fees, GasLimits, PaymasterChoice, SponsorableOperation, SponsorResult } from '../entryPoint'
import { createStepLog } from '../policy/createStepLog'
import { generateId } from '../store/ids'
import { chooseValidity } from './chooseValidity'
import { SponsorshipRejectedError } from './errors'
import { estimateOperation } from './estimateOperation'
import { type PaymasterDeps, requireChain } from './paymasterDeps'
import { resolveFeeToken } from './resolveFeeToken'
import {
  recordSponsorship,
  requireFees,
  requireGas,
  toGasRecord,
  toSignedResult,
  tryComputeUserOpHash,
} from './sponsorUserOperation'
import { getExchangeRate, getNativeUsdPrice, toPriceMarkup } from './tokenPrices'
import type { PaymasterContext } from './types'

export type SponsorUserOperationWithTokenParameters = {
  dapp: Dapp
  op: SponsorableOperation
  context: PaymasterContext
  method: string
}

/**
 * ERC20 mode, for every EntryPoint version: the user pays in `tokenInfo.feeTokenAddress`. The version's token
 * paymaster signs with the token's exchange rate and the dApp's premium as priceMarkup; with calculateGasLimits the
 * limits are re-estimated for the callData as sent (the SDK prepends an approve). The decision is recorded.
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
    chainId: dapp.chainId,
    time: new Date().toISOString(),
    method: params.method,
    mode: 'ERC20' as const,
    entryPointVersion: op.entryPointVersion,
    sender: op.sender,
    nonce: op.nonce.toString(),
    steps: steps.steps,
    paymasterAndData: null,
    gas: null,
    validUntil: null,
    blockWindow: null,
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

  let fees: Fees
  try {
    fees = requireFees(op)
  } catch (err) {
    return fail(err)
  }
  const now = deps.usage.now()
  const { validUntil, validAfter } = chooseValidity(chain, op, 'token', now, now + context.expiryDuration)
  const choice: PaymasterChoice = {
    kind: 'token',
    feeToken: token.address,
    exchangeRate,
    priceMarkup,
    validUntil,
    validAfter,
  }

  let gas: GasLimits
  let signed: Awaited<ReturnType<SponsorableOperation['sign']>>
  try {
    if (context.calculateGasLimits) {
      gas = await estimateOperation(deps, op, fees, choice)
      steps.add('estimate', {
        outcome: 'pass',
        detail: `Simulated with the signed token paymaster data (EntryPoint v${op.entryPointVersion}): callGasLimit ${gas.callGasLimit}, verificationGasLimit ${gas.verificationGasLimit}, preVerificationGas ${gas.preVerificationGas}`,
      })
    } else {
      gas = requireGas(op)
      steps.add('estimate', {
        outcome: 'skip',
        detail: "calculateGasLimits is false: the op's own gas limits are signed as given",
      })
    }
    signed = await op.sign(chain, choice, gas, fees)
  } catch (err) {
    if (!steps.steps.some((s) => s.step === 'estimate')) {
      steps.add('estimate', { outcome: 'fail', detail: (err as Error).message })
    }
    return fail(err)
  }

  const sponsorship = recordSponsorship(deps, {
    ...base,
    userOpHash: tryComputeUserOpHash(deps, op, { ...gas, ...fees }, signed),
    sponsored: true,
    reason: null,
    paymasterAndData: signed.paymasterAndData,
    gas: toGasRecord(gas),
    validUntil,
    feeToken: token.address,
  })
  return { sponsorship, result: toSignedResult('ERC20', signed, gas) }
}
