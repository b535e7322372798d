import type { Address } from 'viem'
import type { Dapp } from '../../../shared/api/dapps'
import type { Sponsorship } from '../../../shared/api/sponsorships'
import { getGasTankBalance } from '../chain'
import type {
  Fees,
  GasLimits,
  PaymasterChoice,
  SignedPaymaster,
  SponsorableOperation,
  SponsorResult,
} from '../entryPoint'
import { InvalidInputError } from '../errors'
import { checkGasTank } from '../policy/checkGasTank'
import { createStepLog, type StepLog } from '../policy/createStepLog'
import { evaluatePolicies } from '../policy/evaluatePolicies'
import { runWebhookStep } from '../policy/runWebhookStep'
import { SPONSORSHIP_STEPS } from '../policy/types'
import { generateId } from '../store/ids'
import { addSponsorship } from '../store/sponsorships.repo'
import { chooseSponsorshipWindow } from './chooseValidity'
import { estimateOperation } from './estimateOperation'
import { type PaymasterDeps, requireChain } from './paymasterDeps'
import type { PaymasterContext } from './types'

export type SponsorUserOperationParameters = {
  dapp: Dapp
  op: SponsorableOperation
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
 * SPONSORED mode, for every EntryPoint version: the decision (dApp, whitelist, limits, then gas estimate, gas tank,
 * webhook; each step recorded) and, when sponsored, the version's verifying paymaster signs for the dApp's
 * paymasterId with validUntil = now + expiryDuration (at most the dApp's validUntil), or, for a dApp asking a block
 * window of an operation whose EntryPoint reads one (v0.9), for that many blocks from the chain's head. Every decision is stored and emitted as `sponsorship.decided`.
 */
export async function sponsorUserOperation(
  deps: PaymasterDeps,
  params: SponsorUserOperationParameters,
): Promise<SponsorUserOperationReturnType> {
  const { dapp, op, context } = params
  const chain = requireChain(deps)
  const steps = createStepLog()
  const version = op.entryPointVersion
  const record = (
    fields: Omit<
      Sponsorship,
      | 'id'
      | 'dappId'
      | 'chainId'
      | 'time'
      | 'method'
      | 'mode'
      | 'sender'
      | 'nonce'
      | 'steps'
      | 'entryPointVersion'
    >,
  ) =>
    recordSponsorship(deps, {
      id: generateId(),
      dappId: dapp.id,
      chainId: dapp.chainId,
      time: new Date().toISOString(),
      method: params.method,
      mode: 'SPONSORED',
      entryPointVersion: version,
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
        gas = await getUnsponsoredGas(deps, op, context)
      } catch (err) {
        estimateError = err
      }
    }
    const sponsorship = record({
      userOpHash: gas ? tryComputeUserOpHash(deps, op, gas, null) : null,
      sponsored: false,
      reason: failure?.detail ?? 'Not sponsored',
      paymasterAndData: '0x',
      gas: gas ? toGasRecord(gas) : null,
      validUntil: null,
      blockWindow: null,
      feeToken: null,
      webhookCallId,
    })
    if (estimateError) throw estimateError
    return { sponsorship, result: toResult('0x', gas, op) }
  }

  if (!(await evaluatePolicies({ ...deps, chain, dapp, op, steps }))) return rejected()

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
  const { validUntil, validAfter, blockRange } = await chooseSponsorshipWindow({
    chain,
    policies: dapp.policies,
    op,
    now,
    expiryDuration: context.expiryDuration,
  })
  const choice: PaymasterChoice = { kind: 'verifying', paymasterId, validUntil, validAfter }

  const balancePromise = getGasTankBalance(chain, paymasterId, version)
  balancePromise.catch(() => {})
  let gas: GasLimits
  if (context.calculateGasLimits) {
    try {
      gas = await estimateOperation(deps, op, fees, choice)
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
        blockWindow: null,
        feeToken: null,
        webhookCallId: null,
      })
      throw err
    }
    steps.add('estimate', {
      outcome: 'pass',
      detail: `Simulated with the signed paymaster data (EntryPoint v${version}): ${describeGas(gas)}`,
    })
  } else {
    gas = requireGas(op)
    steps.add('estimate', {
      outcome: 'skip',
      detail: "calculateGasLimits is false: the op's own gas limits are signed as given",
    })
  }

  const maxCost = op.maxCost(gas, fees.maxFeePerGas)
  const tank = `${paymasterId} (EntryPoint v${version})`
  if (!steps.add('gasTank', checkGasTank({ paymasterId: tank, balance: await balancePromise, maxCost })))
    return rejected()

  const webhook = await runWebhookStep({
    store: deps.store,
    events: deps.events,
    log: deps.log,
    dapp,
    webhookData: context.webhookData,
    userOp: op.toWire(),
    timeoutMs: deps.getWebhookTimeoutMs(),
    steps,
  })
  webhookCallId = webhook.callId
  if (!webhook.ok) return rejected()

  const signed = await op.sign(chain, choice, gas, fees)
  const sponsorship = record({
    userOpHash: tryComputeUserOpHash(deps, op, { ...gas, ...fees }, signed),
    sponsored: true,
    reason: null,
    paymasterAndData: signed.paymasterAndData,
    gas: toGasRecord(gas),
    validUntil: blockRange ? null : validUntil,
    blockWindow: blockRange,
    feeToken: null,
    webhookCallId,
  })
  return { sponsorship, result: toSignedResult('SPONSORED', signed, gas) }
}

/** Gas for the op without a paymaster (the user pays): estimated, or the op's own values. */
async function getUnsponsoredGas(
  deps: PaymasterDeps,
  op: SponsorableOperation,
  context: PaymasterContext,
): Promise<GasLimits | null> {
  if (!context.calculateGasLimits) return op.ownGas
  try {
    return await estimateOperation(deps, op, await getFees(deps, op))
  } catch (err) {
    if (op.ownGas) return op.ownGas
    throw err
  }
}

/** The op's fees, or the chain's current ones (2 × base fee + 1 gwei tip). */
export async function getFees(deps: PaymasterDeps, op: SponsorableOperation): Promise<Fees> {
  const { maxFeePerGas, maxPriorityFeePerGas } = op.fees
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined)
    return { maxFeePerGas, maxPriorityFeePerGas }
  const block = await requireChain(deps).publicClient.getBlock({ blockTag: 'latest' })
  const tip = 1_000_000_000n
  return { maxFeePerGas: (block.baseFeePerGas ?? 0n) * 2n + tip, maxPriorityFeePerGas: tip }
}

export function requireFees(op: SponsorableOperation): Fees {
  const { maxFeePerGas, maxPriorityFeePerGas } = op.fees
  if (maxFeePerGas === undefined || maxPriorityFeePerGas === undefined) {
    throw new InvalidInputError(
      'maxFeePerGas and maxPriorityFeePerGas are required: the paymaster signs them (get them from biconomy_getGasFeeValues)',
    )
  }
  return { maxFeePerGas, maxPriorityFeePerGas }
}

export function requireGas(op: SponsorableOperation): GasLimits {
  if (!op.ownGas) {
    throw new InvalidInputError(
      'callGasLimit, verificationGasLimit and preVerificationGas are required when calculateGasLimits is false',
    )
  }
  return op.ownGas
}

function toResult(paymasterAndData: '0x', gas: GasLimits | null, op: SponsorableOperation): SponsorResult {
  return {
    mode: 'SPONSORED',
    paymasterAndData,
    callGasLimit: gas?.callGasLimit ?? op.ownGas?.callGasLimit ?? 0n,
    verificationGasLimit: gas?.verificationGasLimit ?? op.ownGas?.verificationGasLimit ?? 0n,
    preVerificationGas: gas?.preVerificationGas ?? op.ownGas?.preVerificationGas ?? 0n,
  }
}

/** The sponsor result of a signed paymaster part: its limits come from the signed fields where the version has them. */
export function toSignedResult(
  mode: SponsorResult['mode'],
  signed: SignedPaymaster,
  gas: GasLimits,
): SponsorResult {
  return {
    mode,
    paymasterAndData: signed.paymasterAndData,
    callGasLimit: gas.callGasLimit,
    verificationGasLimit: gas.verificationGasLimit,
    preVerificationGas: gas.preVerificationGas,
    ...(signed.fields
      ? {
          paymasterVerificationGasLimit: signed.fields.paymasterVerificationGasLimit,
          paymasterPostOpGasLimit: signed.fields.paymasterPostOpGasLimit,
          paymasterFields: signed.fields,
        }
      : {}),
  }
}

function describeGas(gas: GasLimits): string {
  return Object.entries(gas)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
}

export function toGasRecord(gas: GasLimits): Sponsorship['gas'] {
  return {
    callGasLimit: gas.callGasLimit.toString(),
    verificationGasLimit: gas.verificationGasLimit.toString(),
    preVerificationGas: gas.preVerificationGas.toString(),
    ...(gas.paymasterVerificationGasLimit !== undefined
      ? { paymasterVerificationGasLimit: gas.paymasterVerificationGasLimit.toString() }
      : {}),
    ...(gas.paymasterPostOpGasLimit !== undefined
      ? { paymasterPostOpGasLimit: gas.paymasterPostOpGasLimit.toString() }
      : {}),
  }
}

/** The userOpHash of the op as it will be sent (the signature is not part of it), when its fees are known. */
export function tryComputeUserOpHash(
  deps: PaymasterDeps,
  op: SponsorableOperation,
  gas: GasLimits & Partial<Fees>,
  paymaster: SignedPaymaster | null,
): string | null {
  const fees = { ...op.fees, ...gas }
  if (fees.maxFeePerGas === undefined || fees.maxPriorityFeePerGas === undefined) return null
  return op.computeUserOpHash(
    requireChain(deps),
    gas,
    { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
    paymaster,
  )
}

/** Stores the decision (batched: the request does not wait for the disk) and emits `sponsorship.decided`. */
export function recordSponsorship(
  deps: Pick<PaymasterDeps, 'store' | 'events' | 'getChain'>,
  decided: Sponsorship,
): Sponsorship {
  const chainTime = deps.getChain()?.clock.now()
  const sponsorship = chainTime === undefined ? decided : { ...decided, chainTime }
  addSponsorship(deps.store, sponsorship)
  deps.events?.emit('sponsorship.decided', {
    id: sponsorship.id,
    dappId: sponsorship.dappId,
    sponsored: sponsorship.sponsored,
  })
  return sponsorship
}

export type { StepLog }
