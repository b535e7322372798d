import {
  type Address,
  type Hex,
  hexToBigInt,
  type RpcStateOverride,
  toFunctionSelector,
  zeroAddress,
} from 'viem'
import { decodeRevertReason } from '../../chain/entryPoint/decodeRevert'
import { mergeStateOverride } from '../../chain/node/mergeStateOverride'
import type { Chain } from '../../chain/types'
import { attachFailureTrace, executionReverted, userOperationRejected } from '../errors'
import { type CallFrame, traceSimulation } from '../estimation/callFrame'
import {
  estimateGasLimits,
  type SimulationOutcome as Outcome,
  throwOnFailure,
} from '../estimation/estimateGasLimits'
import {
  CALL_MARGIN_MIN,
  CALL_MARGIN_PERCENT,
  CALL_STIPEND,
  ESTIMATION_SENDER_BALANCE,
  maxBigInt,
  minBigInt,
  ranOutOfGas,
  VERIFICATION_MARGIN_MIN,
  VERIFICATION_MARGIN_PERCENT,
  withMargin,
} from '../estimation/gasMargins'
import type { GasFees } from '../types'
import { calculatePreVerificationGas } from './calculatePreVerificationGas'
import { type DecodedEntryPointError, decodeEntryPointError } from './decodeEntryPointError'
import { encodeSimulateHandleOp } from './encodeEntryPointCalls'
import { type FirstCheck, type FirstCheckGuesses, firstCheckGuessesOf } from './firstCheckGuesses'
import { readEntities } from './readEntities'
import type { PartialUserOperation, UserOperationV06 } from './userOperation'

export type EstimateUserOperationGasParameters = {
  chain: Chain
  userOperation: PartialUserOperation
  /** Fees to simulate with when the operation has none (the bundler's current fee values). */
  gasFees: GasFees
  /** geth-style state override set (RPC form), applied to every simulation. */
  stateOverride?: RpcStateOverride
  /**
   * Called with each trial operation (its final gas fields set) before it is simulated; returns the
   * paymasterAndData to simulate with. A paymaster signs here, so its validation takes the real path and its
   * postOp is measured; without it a dummy paymaster signature usually skips postOp.
   */
  preparePaymasterAndData?: (userOperation: UserOperationV06) => Promise<Hex> | Hex
  /** Largest gas an eth_call may use (the block gas limit). */
  maxSimulationGas?: bigint
  /** Limits earlier estimates of the same shape passed with, tried first (default: the chain's own table). */
  guesses?: FirstCheckGuesses
}

export type EstimateUserOperationGasReturnType = {
  preVerificationGas: bigint
  verificationGasLimit: bigint
  callGasLimit: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  /** 0 = no lower bound. */
  validAfter: number
  /** 0 = no expiry. */
  validUntil: number
  /** What the simulation measured, for the estimated-versus-actual report. */
  measured: {
    validationGas: bigint
    executionGas: bigint
    postOpGas: bigint
    simulations: number
    /** The limits an operation of this shape passed with last time were measured and verified by one run. */
    fromGuess: boolean
  }
}

const INNER_HANDLE_OP = toFunctionSelector(
  'innerHandleOp(bytes,((address,uint256,uint256,uint256,uint256,address,uint256,uint256),bytes32,uint256,uint256,uint256),bytes)',
)
/** The first simulation's limits; a raised call limit is tightened before the verification limit. */
const TRIAL: FirstCheck = { callGasLimit: 3_000_000n, verificationGasLimit: 1_500_000n }

/**
 * Estimates the gas limits of a v0.6 UserOperation by simulation (EntryPoint.simulateHandleOp traced with
 * callTracer) in the estimation loop every version runs (estimation/estimateGasLimits.ts): verification gas =
 * what validation used plus a margin, call gas = what the call phase used plus a margin, re-simulated with exactly
 * those limits. preVerificationGas is the calldata cost plus the bundle overheads. Works without gas or fee
 * fields, with a dummy signature (signature failures do not stop simulateHandleOp) and with an initCode. Throws
 * RpcError with the EntryPoint's AAxx reason (-32500/-32501) or -32521 when the call phase reverts.
 */
export async function estimateUserOperationGas(
  params: EstimateUserOperationGasParameters,
): Promise<EstimateUserOperationGasReturnType> {
  const { userOperation } = params
  const fees: GasFees = {
    maxFeePerGas: userOperation.maxFeePerGas ?? params.gasFees.maxFeePerGas,
    maxPriorityFeePerGas: userOperation.maxPriorityFeePerGas ?? params.gasFees.maxPriorityFeePerGas,
  }
  const preVerificationGas = calculatePreVerificationGas({ userOperation })
  const maxSimulationGas = params.maxSimulationGas ?? 30_000_000n

  const simulate = async ({ verificationGasLimit, callGasLimit }: FirstCheck) => {
    const op: UserOperationV06 = {
      sender: userOperation.sender,
      nonce: userOperation.nonce,
      initCode: userOperation.initCode,
      callData: userOperation.callData,
      callGasLimit,
      verificationGasLimit,
      preVerificationGas,
      ...fees,
      paymasterAndData: userOperation.paymasterAndData,
      signature: userOperation.signature,
    }
    if (params.preparePaymasterAndData) op.paymasterAndData = await params.preparePaymasterAndData(op)
    return simulateHandleOpTrace(
      { chain: params.chain, stateOverride: withSenderBalance(params.stateOverride, op) },
      op,
      maxSimulationGas,
    )
  }

  const estimate = await estimateGasLimits({
    trial: TRIAL,
    simulate,
    deriveLimits: (measured) => deriveFirstCheck(measured, userOperation.callData),
    guesses: params.guesses ?? firstCheckGuessesOf(params.chain),
    subject: { userOperation, stateOverride: params.stateOverride },
  })
  const { verified, measured } = estimate
  return {
    preVerificationGas,
    verificationGasLimit: estimate.limits.verificationGasLimit,
    callGasLimit: estimate.limits.callGasLimit,
    ...fees,
    validAfter: verified.validAfter,
    validUntil: verified.validUntil,
    measured: {
      validationGas: measured.validationGas,
      executionGas: measured.executionGas,
      postOpGas: measured.postOpGas,
      simulations: estimate.simulations,
      fromGuess: estimate.fromGuess,
    },
  }
}

/**
 * eth_sendUserOperation with `simulation_type: 'validation_and_execution'`: simulates the operation exactly as
 * sent (its own limits and fees, no balance override) and throws -32521 when its call phase reverts or runs out
 * of gas, or the EntryPoint's AAxx rejection.
 */
export async function simulateExecution(params: {
  chain: Chain
  userOperation: UserOperationV06
  maxSimulationGas: bigint
}) {
  const outcome = await simulateHandleOpTrace(
    { chain: params.chain, stateOverride: undefined },
    params.userOperation,
    params.maxSimulationGas,
  )
  if (outcome.outOfGas === 'callGasLimit')
    throw attachFailureTrace(executionReverted('out of gas (callGasLimit too low)'), outcome.trace)
  if (outcome.outOfGas === 'verificationGasLimit')
    throw attachFailureTrace(userOperationRejected('AA40 over verificationGasLimit'), outcome.trace)
  throwOnFailure(outcome)
}

type SimulationOutcome = Outcome<keyof FirstCheck> & {
  validationGas: bigint
  executionGas: bigint
  postOpGas: bigint
}

async function simulateHandleOpTrace(
  params: { chain: Chain; stateOverride: RpcStateOverride | undefined },
  op: UserOperationV06,
  maxSimulationGas: bigint,
): Promise<SimulationOutcome> {
  const entryPoint = params.chain.addresses.entryPoint
  const { stateOverride } = params
  const gas = minBigInt(
    maxSimulationGas,
    op.verificationGasLimit * 3n + op.callGasLimit + op.preVerificationGas + 1_000_000n,
  )
  const top = await traceSimulation(
    params.chain,
    {
      to: entryPoint,
      data: encodeSimulateHandleOp(op, zeroAddress, '0x'),
      gas,
    },
    stateOverride,
  )
  const outcome: SimulationOutcome = {
    outOfGas: false,
    trace: { frame: top, userOperation: op },
    validationGas: 0n,
    executionGas: 0n,
    postOpGas: 0n,
    validAfter: 0,
    validUntil: 0,
  }
  let decoded: DecodedEntryPointError | undefined
  try {
    if (top.output) decoded = decodeEntryPointError(top.output)
  } catch {}
  if (decoded?.errorName === 'FailedOp') {
    const reason = decoded.args[1]
    outcome.failedOp = reason
    outcome.rejection = userOperationRejected(reason, { revertData: top.output })
    if (isVerificationOutOfGas(reason, top)) outcome.outOfGas = 'verificationGasLimit'
    return outcome
  }
  if (decoded?.errorName !== 'ExecutionResult') {
    const inner = findInnerHandleOp(top, entryPoint)
    if (inner?.error && top.gasUsed && hexToBigInt(top.gasUsed) >= gas - gas / 64n) {
      outcome.outOfGas = 'callGasLimit'
      return outcome
    }
    outcome.otherRevert =
      decodeRevertReason(top.output ?? null) ?? top.output ?? top.error ?? 'no revert data'
    return outcome
  }
  const [preOpGas, , validAfter, validUntil] = decoded.args
  outcome.validationGas = preOpGas - op.preVerificationGas
  outcome.validAfter = validAfter
  outcome.validUntil = validUntil
  const inner = findInnerHandleOp(top, entryPoint)
  const { paymaster } = readEntities(op)
  for (const frame of inner?.calls ?? []) {
    const to = frame.to?.toLowerCase()
    if (to === op.sender.toLowerCase() && op.callData !== '0x' && frame.input === op.callData.toLowerCase()) {
      outcome.executionGas = hexToBigInt(frame.gasUsed)
      if (frame.error) {
        // A sub-call that ran out of gas often surfaces as a plain revert of the frame (bubbled up).
        if (ranOutOfGas(frame)) outcome.outOfGas = 'callGasLimit'
        else
          outcome.executionRevert = {
            reason: frame.revertReason ?? decodeRevertReason(frame.output ?? null),
            data: frame.output,
          }
      }
    } else if (paymaster && to === paymaster) {
      outcome.postOpGas = hexToBigInt(frame.gasUsed)
      if (frame.error && ranOutOfGas(frame)) outcome.outOfGas = 'verificationGasLimit'
    }
  }
  return outcome
}

/**
 * The limits the first exact-limits simulation tries: verification = what validation (or postOp, which gets the
 * same limit) used plus a margin; call = what the call phase used plus a margin and the stipend a value call
 * needs at its peak. Net gas used can be below the peak a frame needs (the 63/64 rule, the 2300 stipend).
 */
function deriveFirstCheck(measured: SimulationOutcome, callData: Hex): FirstCheck {
  return {
    verificationGasLimit: withMargin(
      maxBigInt(measured.validationGas, (measured.postOpGas * 64n) / 63n),
      VERIFICATION_MARGIN_PERCENT,
      VERIFICATION_MARGIN_MIN,
    ),
    callGasLimit:
      callData === '0x'
        ? 0n
        : withMargin(measured.executionGas, CALL_MARGIN_PERCENT, CALL_MARGIN_MIN) + CALL_STIPEND,
  }
}

/** A FailedOp caused by too little verification gas (a validation frame ran out of gas, or AA40/AA41). */
function isVerificationOutOfGas(reason: string, top: CallFrame): boolean {
  if (/^AA4[01]/.test(reason)) return true
  if (!/^AA(13|23|33)/.test(reason)) return false
  return (top.calls ?? []).some((frame) => frame.error !== undefined && ranOutOfGas(frame))
}

function findInnerHandleOp(top: CallFrame, entryPoint: Address): CallFrame | undefined {
  const ep = entryPoint.toLowerCase()
  return (top.calls ?? []).find((f) => f.to?.toLowerCase() === ep && f.input.startsWith(INNER_HANDLE_OP))
}

function withSenderBalance(
  stateOverride: RpcStateOverride | undefined,
  op: UserOperationV06,
): RpcStateOverride | undefined {
  if (op.paymasterAndData !== '0x') return stateOverride
  return mergeStateOverride(
    stateOverride,
    op.sender,
    { balance: `0x${ESTIMATION_SENDER_BALANCE.toString(16)}` },
    { keepExisting: true },
  )
}
