import type { Address, Hex } from 'viem'
import { type Chain, computeUserOpHash, getGasTankBalance } from '../chain'
import { InvalidInputError } from '../errors'
import { checkGasTank, getMaxOperationCost } from '../policy/checkGasTank'
import { createStepLog, type StepLog } from '../policy/createStepLog'
import { evaluatePolicies } from '../policy/evaluatePolicies'
import { runWebhookStep } from '../policy/runWebhookStep'
import { SPONSORSHIP_STEPS } from '../policy/types'
import { generateId } from '../store/ids'
import type { Dapp, Sponsorship } from '../store/schema'
import { addSponsorship } from '../store/sponsorships.repo'
import { estimateGasLimits, PLACEHOLDER_SIGNATURE } from './estimateGasLimits'
import { formatUserOperation } from './formatUserOperation'
import { type PaymasterDeps, requireChain } from './paymasterDeps'
import { overrideGasTankBalance } from './simulationOverrides'
import type {
  GasLimits,
  PartialUserOperation,
  PaymasterContext,
  SignableUserOperation,
  SponsorResult,
} from './types'
import { encodeVerifyingPaymasterAndData, signVerifyingPaymasterAndData } from './verifyingPaymasterAndData'

export type SponsorUserOperationParameters = {
  dapp: Dapp
  op: PartialUserOperation
  context: PaymasterContext
  /** Wire method, recorded with the decision. */
  method: string
  /**
   * With calculateGasLimits, a rejected op still gets gas limits (for the user to pay): 'estimate' computes
   * them without a paymaster; 'none' skips that (the caller turns the rejection into an error).
   */
  whenRejected: 'estimate' | 'none'
}

export type SponsorUserOperationReturnType = {
  sponsorship: Sponsorship
  /** paymasterAndData '0x' when not sponsored. */
  result: SponsorResult
}

/**
 * SPONSORED mode: the decision (dApp, whitelist, limits, then gas estimate, gas tank, webhook; each step
 * recorded) and, when sponsored, a verifying-paymaster paymasterAndData signed with the dApp's paymasterId and
 * validUntil = now + expiryDuration. Every decision is stored and emitted as `sponsorship.decided`.
 */
export async function sponsorUserOperation(
  deps: PaymasterDeps,
  params: SponsorUserOperationParameters,
): Promise<SponsorUserOperationReturnType> {
  const { dapp, op, context } = params
  const chain = requireChain(deps)
  const steps = createStepLog()
  const record = (
    fields: Omit<Sponsorship, 'id' | 'dappId' | 'time' | 'method' | 'mode' | 'sender' | 'nonce' | 'steps'>,
  ) =>
    recordSponsorship(deps, {
      id: generateId(),
      dappId: dapp.id,
      time: new Date().toISOString(),
      method: params.method,
      mode: 'SPONSORED',
      sender: op.sender,
      nonce: op.nonce.toString(),
      steps: steps.steps,
      ...fields,
    })

  let webhookCallId: string | null = null
  const rejected = async (): Promise<SponsorUserOperationReturnType> => {
    const failure = steps.failure()
    steps.skip(SPONSORSHIP_STEPS, `Not evaluated: the ${failure?.step ?? 'previous'} step failed`)
    let gas: GasLimits | null = null
    let estimateError: unknown
    if (params.whenRejected === 'estimate') {
      try {
        gas = await getUnsponsoredGas(chain, op, context)
      } catch (err) {
        estimateError = err
      }
    }
    const sponsorship = record({
      userOpHash: gas ? tryComputeUserOpHash(chain, op, gas, '0x') : null,
      sponsored: false,
      reason: failure?.detail ?? 'Not sponsored',
      paymasterAndData: '0x',
      gas: gas ? toGasRecord(gas) : null,
      validUntil: null,
      feeToken: null,
      webhookCallId,
    })
    if (estimateError) throw estimateError
    return { sponsorship, result: toResult('0x', gas, op) }
  }

  if (!(await evaluatePolicies({ store: deps.store, usage: deps.usage, dapp, op, steps }))) return rejected()

  const fees = requireFees(op)
  const paymasterId = dapp.paymasterId as Address | null
  if (!paymasterId) {
    steps.add('estimate', { outcome: 'skip', detail: 'Not estimated: the dApp has no gas tank' })
    steps.add('gasTank', {
      outcome: 'fail',
      detail: 'The dApp has no gas tank yet (no paymasterId on the verifying paymaster)',
    })
    return rejected()
  }
  const now = deps.usage.now()
  const policyUntil = dapp.policies.validUntil ?? Number.POSITIVE_INFINITY
  const validUntil = Math.min(now + context.expiryDuration, policyUntil)
  const validAfter = 0
  const sign = (signable: SignableUserOperation) =>
    signVerifyingPaymasterAndData(signable, {
      paymaster: chain.addresses.verifyingPaymaster,
      paymasterId,
      validUntil,
      validAfter,
      chainId: chain.chainId,
      signer: chain.paymasterSigner,
    })

  const balancePromise = getGasTankBalance(chain, paymasterId)
  balancePromise.catch(() => {})
  let gas: GasLimits
  if (context.calculateGasLimits) {
    try {
      gas = await estimateGasLimits({
        chain,
        op: { ...op, ...fees },
        paymaster: {
          placeholder: encodeVerifyingPaymasterAndData({
            paymaster: chain.addresses.verifyingPaymaster,
            paymasterId,
            validUntil,
            validAfter,
            signature: PLACEHOLDER_SIGNATURE,
          }),
          sign,
          stateOverride: overrideGasTankBalance(chain.addresses.verifyingPaymaster, paymasterId),
        },
      })
    } catch (err) {
      steps.add('estimate', {
        outcome: 'fail',
        detail: `Simulation with the paymaster failed: ${(err as Error).message}`,
      })
      steps.skip(SPONSORSHIP_STEPS, 'Not evaluated: the estimate step failed')
      record({
        userOpHash: null,
        sponsored: false,
        reason: `Gas estimation failed: ${(err as Error).message}`,
        paymasterAndData: null,
        gas: null,
        validUntil: null,
        feeToken: null,
        webhookCallId: null,
      })
      throw err
    }
    steps.add('estimate', {
      outcome: 'pass',
      detail: `Simulated with the signed paymasterAndData: callGasLimit ${gas.callGasLimit}, verificationGasLimit ${gas.verificationGasLimit}, preVerificationGas ${gas.preVerificationGas}`,
    })
  } else {
    gas = requireGas(op)
    steps.add('estimate', {
      outcome: 'skip',
      detail: "calculateGasLimits is false: the op's own gas limits are signed as given",
    })
  }

  const maxCost = getMaxOperationCost({ ...gas, maxFeePerGas: fees.maxFeePerGas })
  if (!steps.add('gasTank', checkGasTank({ paymasterId, balance: await balancePromise, maxCost })))
    return rejected()

  const webhook = await runWebhookStep({
    store: deps.store,
    events: deps.events,
    log: deps.log,
    dapp,
    webhookData: context.webhookData,
    userOp: formatUserOperation(op),
    timeoutMs: deps.getWebhookTimeoutMs(),
    steps,
  })
  webhookCallId = webhook.callId
  if (!webhook.ok) return rejected()

  const signable: SignableUserOperation = { ...op, ...gas, ...fees }
  const paymasterAndData = await sign(signable)
  const sponsorship = record({
    userOpHash: tryComputeUserOpHash(chain, op, { ...gas, ...fees }, paymasterAndData),
    sponsored: true,
    reason: null,
    paymasterAndData,
    gas: toGasRecord(gas),
    validUntil,
    feeToken: null,
    webhookCallId,
  })
  return { sponsorship, result: { mode: 'SPONSORED', paymasterAndData, ...gas } }
}

/** Gas for the op without a paymaster (the user pays): estimated, or the op's own values. */
async function getUnsponsoredGas(
  chain: Chain,
  op: PartialUserOperation,
  context: PaymasterContext,
): Promise<GasLimits | null> {
  const own = readGas(op)
  if (!context.calculateGasLimits) return own
  try {
    return await estimateGasLimits({ chain, op })
  } catch (err) {
    if (own) return own
    throw err
  }
}

export function requireFees(op: PartialUserOperation): {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
} {
  if (op.maxFeePerGas === undefined || op.maxPriorityFeePerGas === undefined) {
    throw new InvalidInputError(
      'maxFeePerGas and maxPriorityFeePerGas are required: the paymaster signs them (get them from biconomy_getGasFeeValues)',
    )
  }
  return { maxFeePerGas: op.maxFeePerGas, maxPriorityFeePerGas: op.maxPriorityFeePerGas }
}

function readGas(op: PartialUserOperation): GasLimits | null {
  if (
    op.callGasLimit === undefined ||
    op.verificationGasLimit === undefined ||
    op.preVerificationGas === undefined
  ) {
    return null
  }
  return {
    callGasLimit: op.callGasLimit,
    verificationGasLimit: op.verificationGasLimit,
    preVerificationGas: op.preVerificationGas,
  }
}

export function requireGas(op: PartialUserOperation): GasLimits {
  const gas = readGas(op)
  if (!gas) {
    throw new InvalidInputError(
      'callGasLimit, verificationGasLimit and preVerificationGas are required when calculateGasLimits is false',
    )
  }
  return gas
}

function toResult(paymasterAndData: Hex, gas: GasLimits | null, op: PartialUserOperation): SponsorResult {
  return {
    mode: 'SPONSORED',
    paymasterAndData,
    callGasLimit: gas?.callGasLimit ?? op.callGasLimit ?? 0n,
    verificationGasLimit: gas?.verificationGasLimit ?? op.verificationGasLimit ?? 0n,
    preVerificationGas: gas?.preVerificationGas ?? op.preVerificationGas ?? 0n,
  }
}

export function toGasRecord(gas: GasLimits): Sponsorship['gas'] {
  return {
    callGasLimit: gas.callGasLimit.toString(),
    verificationGasLimit: gas.verificationGasLimit.toString(),
    preVerificationGas: gas.preVerificationGas.toString(),
  }
}

/** The v0.6 userOpHash (the signature is not part of it), when every field is known. */
export function tryComputeUserOpHash(
  chain: Chain,
  op: PartialUserOperation,
  gas: Partial<GasLimits & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }>,
  paymasterAndData: Hex,
): string | null {
  const full = { ...op, ...gas }
  if (
    full.callGasLimit === undefined ||
    full.verificationGasLimit === undefined ||
    full.preVerificationGas === undefined ||
    full.maxFeePerGas === undefined ||
    full.maxPriorityFeePerGas === undefined
  ) {
    return null
  }
  return computeUserOpHash(
    {
      sender: full.sender,
      nonce: full.nonce,
      initCode: full.initCode,
      callData: full.callData,
      callGasLimit: full.callGasLimit,
      verificationGasLimit: full.verificationGasLimit,
      preVerificationGas: full.preVerificationGas,
      maxFeePerGas: full.maxFeePerGas,
      maxPriorityFeePerGas: full.maxPriorityFeePerGas,
      paymasterAndData,
      signature: '0x',
    },
    chain.chainId,
    chain.addresses.entryPoint,
  )
}

/** Stores the decision (batched: the request does not wait for the disk) and emits `sponsorship.decided`. */
export function recordSponsorship(
  deps: Pick<PaymasterDeps, 'store' | 'events'>,
  sponsorship: Sponsorship,
): Sponsorship {
  addSponsorship(deps.store, sponsorship)
  deps.events?.emit('sponsorship.decided', {
    id: sponsorship.id,
    dappId: sponsorship.dappId,
    sponsored: sponsorship.sponsored,
  })
  return sponsorship
}

export type { StepLog }
