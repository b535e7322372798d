import {
  decodeFunctionResult,
  type Hex,
  hexToBigInt,
  type RpcStateOverride,
  toFunctionSelector,
  zeroAddress,
} from 'viem'
import { decodeRevertReason } from '../../chain/entryPoint/decodeRevert'
import { FailedOpError } from '../../chain/entryPoint/errors'
import { mergeStateOverride } from '../../chain/node/mergeStateOverride'
import type { Chain } from '../../chain/types'
import { rejectEntryPointRevert } from '../errors'
import { traceSimulation } from '../estimation/callFrame'
import { estimateGasLimits, type SimulationOutcome } from '../estimation/estimateGasLimits'
import {
  CALL_MARGIN_MIN,
  CALL_MARGIN_PERCENT,
  CALL_STIPEND,
  ESTIMATION_SENDER_BALANCE,
  minBigInt,
  ranOutOfGas,
  VERIFICATION_MARGIN_MIN,
  VERIFICATION_MARGIN_PERCENT,
  withMargin,
} from '../estimation/gasMargins'
import type { GasFees } from '../types'
import { encodeSimulateHandleOpV07, entryPointSimulationsAbi } from './encodeEntryPointCalls'
import { firstCheckGuessesOf, type GasLimitsV07 } from './firstCheckGuesses'
import { packUserOperation } from './packUserOperation'
import {
  parseValidationData,
  type SimulationTarget,
  toSimulationError,
  withSimulationCode,
} from './simulateEntryPoint'
import type { PartialUserOperationV07, UserOperationV07 } from './userOperation'

export type { GasLimitsV07 }

export type EstimateUserOperationGasV07Parameters = {
  chain: Chain
  target: SimulationTarget
  userOperation: PartialUserOperationV07
  gasFees: GasFees
  stateOverride?: RpcStateOverride
  /** The version's preVerificationGas of the operation as it will be sent. */
  calculatePreVerificationGas: (op: UserOperationV07) => bigint
  /** State the simulation needs besides the caller's (v0.7+: an EIP-7702 account's delegation). */
  withAccountState: (op: UserOperationV07, stateOverride?: RpcStateOverride) => RpcStateOverride | undefined
  /** Called with each trial operation before it is simulated; returns the paymasterData to simulate with. */
  preparePaymasterData?: (op: UserOperationV07) => Promise<Hex> | Hex
  maxSimulationGas?: bigint
}

export type EstimateUserOperationGasV07ReturnType = GasLimitsV07 & {
  preVerificationGas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  validAfter: number
  validUntil: number
  measured: {
    validationGas: bigint
    paymasterValidationGas: bigint
    executionGas: bigint
    postOpGas: bigint
    simulations: number
  }
}

type Outcome = SimulationOutcome<keyof GasLimitsV07> & {
  validationGas: bigint
  paymasterValidationGas: bigint
  executionGas: bigint
  postOpGas: bigint
}

const VALIDATE_PAYMASTER_USER_OP = toFunctionSelector(
  'validatePaymasterUserOp((address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes),bytes32,uint256)',
)
const POST_OP = toFunctionSelector('postOp(uint8,bytes,uint256,uint256)')
const INNER_HANDLE_OP = (() => {
  const item = entryPointSimulationsAbi.find(
    (i) => i.type === 'function' && 'name' in i && i.name === 'innerHandleOp',
  )
  if (!item) throw new Error('innerHandleOp missing from the EntryPointSimulations ABI')
  return toFunctionSelector(item as never)
})()

const TRIAL: GasLimitsV07 = {
  verificationGasLimit: 1_500_000n,
  callGasLimit: 3_000_000n,
  paymasterVerificationGasLimit: 1_000_000n,
  paymasterPostOpGasLimit: 1_000_000n,
}
/** EntryPoint work inside the paymaster's verification budget besides its call (context copy, deposit update). */
const PAYMASTER_VERIFICATION_OVERHEAD = 12_000n

/**
 * Estimates a v0.7/v0.8 operation's four gas limits by simulation: EntryPointSimulations.simulateHandleOp, traced
 * with callTracer, measures the account's validation (with its deployment), the paymaster's validation, the call
 * phase and postOp; each limit is what was measured plus a margin, then the operation is simulated with exactly
 * those limits and a limit that runs out is raised until it passes (estimation/estimateGasLimits.ts, the loop every
 * version runs).
 */
export async function estimateUserOperationGasV07(
  params: EstimateUserOperationGasV07Parameters,
): Promise<EstimateUserOperationGasV07ReturnType> {
  const { userOperation } = params
  const fees: GasFees = {
    maxFeePerGas: userOperation.given.maxFeePerGas ?? params.gasFees.maxFeePerGas,
    maxPriorityFeePerGas: userOperation.given.maxPriorityFeePerGas ?? params.gasFees.maxPriorityFeePerGas,
  }
  const hasPaymaster = userOperation.paymaster !== null
  const base: UserOperationV07 = { ...userOperation, ...fees }
  const preVerificationGas = params.calculatePreVerificationGas(base)
  const maxSimulationGas = params.maxSimulationGas ?? 30_000_000n

  const simulate = async (limits: GasLimitsV07): Promise<Outcome> => {
    const op: UserOperationV07 = {
      ...base,
      ...limits,
      preVerificationGas,
      ...(hasPaymaster ? {} : { paymasterVerificationGasLimit: 0n, paymasterPostOpGasLimit: 0n }),
    }
    if (params.preparePaymasterData && hasPaymaster) op.paymasterData = await params.preparePaymasterData(op)
    return simulateHandleOpTraced(params, op, maxSimulationGas)
  }

  const deriveLimits = (measured: Outcome): GasLimitsV07 => ({
    verificationGasLimit: withMargin(
      measured.validationGas,
      VERIFICATION_MARGIN_PERCENT,
      VERIFICATION_MARGIN_MIN,
    ),
    callGasLimit:
      userOperation.callData === '0x'
        ? 0n
        : withMargin(measured.executionGas, CALL_MARGIN_PERCENT, CALL_MARGIN_MIN) + CALL_STIPEND,
    paymasterVerificationGasLimit: hasPaymaster
      ? withMargin(
          measured.paymasterValidationGas + PAYMASTER_VERIFICATION_OVERHEAD,
          VERIFICATION_MARGIN_PERCENT,
          0n,
        )
      : 0n,
    paymasterPostOpGasLimit: hasPaymaster
      ? withMargin((measured.postOpGas * 64n) / 63n, VERIFICATION_MARGIN_PERCENT, CALL_MARGIN_MIN)
      : 0n,
  })
  const estimate = await estimateGasLimits({
    trial: TRIAL,
    simulate,
    deriveLimits,
    guesses: firstCheckGuessesOf(params.chain),
    subject: { userOperation, stateOverride: params.stateOverride },
  })
  const { verified, measured } = estimate
  return {
    preVerificationGas,
    ...estimate.limits,
    ...fees,
    validAfter: verified.validAfter,
    validUntil: verified.validUntil,
    measured: {
      validationGas: measured.validationGas,
      paymasterValidationGas: measured.paymasterValidationGas,
      executionGas: measured.executionGas,
      postOpGas: measured.postOpGas,
      simulations: estimate.simulations,
    },
  }
}

async function simulateHandleOpTraced(
  params: EstimateUserOperationGasV07Parameters,
  op: UserOperationV07,
  maxSimulationGas: bigint,
): Promise<Outcome> {
  const entryPoint = params.target.address.toLowerCase()
  const gas = minBigInt(
    maxSimulationGas,
    op.verificationGasLimit * 2n +
      op.paymasterVerificationGasLimit * 2n +
      op.callGasLimit +
      op.paymasterPostOpGasLimit +
      op.preVerificationGas +
      1_000_000n,
  )
  let stateOverride = params.withAccountState(op, params.stateOverride)
  if (!op.paymaster)
    stateOverride = mergeStateOverride(
      stateOverride,
      op.sender,
      { balance: `0x${ESTIMATION_SENDER_BALANCE.toString(16)}` },
      { keepExisting: true },
    )
  const top = await traceSimulation(
    params.chain,
    {
      to: params.target.address,
      data: encodeSimulateHandleOpV07(packUserOperation(op), zeroAddress, '0x'),
      gas,
    },
    withSimulationCode(params.target, stateOverride),
  )
  const outcome: Outcome = {
    outOfGas: false,
    trace: { frame: top, userOperation: op },
    validationGas: 0n,
    paymasterValidationGas: 0n,
    executionGas: 0n,
    postOpGas: 0n,
    validAfter: 0,
    validUntil: 0,
  }
  const frames = top.calls ?? []
  const paymaster = op.paymaster?.toLowerCase()
  const pmFrame = frames.find(
    (f) => f.to?.toLowerCase() === paymaster && f.input.startsWith(VALIDATE_PAYMASTER_USER_OP),
  )
  if (top.error && top.output && top.output !== '0x') {
    const error = toSimulationError(top.output, undefined, params.target.readEntryPointError)
    // v0.9's custom errors (PaymasterNotDeployed: AA30, Eip7702SenderWithoutCode, …) are rejections of the
    // operation in the phase they name, as the send answers them, not execution reverts.
    const custom = params.target.readEntryPointError(top.output)
    if (!(error instanceof FailedOpError) && !custom) {
      outcome.otherRevert = error.message
      return outcome
    }
    outcome.failedOp = error instanceof FailedOpError ? error.reason : (custom?.text ?? error.message)
    outcome.rejection = rejectEntryPointRevert(params.target, outcome.failedOp, top.output)
    if (!(error instanceof FailedOpError)) return outcome
    if (/^AA26|^AA4[01]/.test(error.reason)) outcome.outOfGas = 'verificationGasLimit'
    else if (/^AA36/.test(error.reason)) outcome.outOfGas = 'paymasterVerificationGasLimit'
    else if (/^AA(13|23)/.test(error.reason) && frames.some((f) => f !== pmFrame && ranOutOfGas(f)))
      outcome.outOfGas = 'verificationGasLimit'
    else if (/^AA33/.test(error.reason) && pmFrame && ranOutOfGas(pmFrame))
      outcome.outOfGas = 'paymasterVerificationGasLimit'
    return outcome
  }
  if (top.error) {
    outcome.otherRevert = top.error
    return outcome
  }
  let result: { preOpGas: bigint; accountValidationData: bigint; paymasterValidationData: bigint }
  try {
    result = decodeFunctionResult({
      abi: entryPointSimulationsAbi,
      functionName: 'simulateHandleOp',
      data: top.output ?? '0x',
    }) as unknown as typeof result
  } catch {
    outcome.otherRevert = `simulateHandleOp returned ${top.output?.slice(0, 74) ?? 'nothing'}`
    return outcome
  }
  const account = parseValidationData(result.accountValidationData)
  const pm = parseValidationData(result.paymasterValidationData)
  const untils = [account.validUntil, pm.validUntil].filter((u) => u !== 0)
  outcome.validAfter = Math.max(account.validAfter, pm.validAfter)
  outcome.validUntil = untils.length > 0 ? Math.min(...untils) : 0
  outcome.paymasterValidationGas = pmFrame ? hexToBigInt(pmFrame.gasUsed) : 0n
  outcome.validationGas = result.preOpGas - op.preVerificationGas - outcome.paymasterValidationGas
  if (pmFrame) outcome.validationGas -= PAYMASTER_VERIFICATION_OVERHEAD
  const inner = frames.find((f) => f.to?.toLowerCase() === entryPoint && f.input.startsWith(INNER_HANDLE_OP))
  const sender = op.sender.toLowerCase()
  for (const frame of inner?.calls ?? []) {
    const to = frame.to?.toLowerCase()
    if (to === sender && op.callData !== '0x') {
      outcome.executionGas = hexToBigInt(frame.gasUsed)
      if (frame.error) {
        if (ranOutOfGas(frame)) outcome.outOfGas = 'callGasLimit'
        else
          outcome.executionRevert = {
            reason: frame.revertReason ?? decodeRevertReason(frame.output ?? null),
            data: frame.output,
          }
      }
    } else if (paymaster && to === paymaster && frame.input.startsWith(POST_OP)) {
      outcome.postOpGas = hexToBigInt(frame.gasUsed)
      if (frame.error && ranOutOfGas(frame)) outcome.outOfGas = 'paymasterPostOpGasLimit'
      else if (frame.error)
        outcome.postOpRevert = {
          reason: frame.revertReason ?? decodeRevertReason(frame.output ?? null),
          data: frame.output,
        }
    }
  }
  if (inner?.error && !outcome.outOfGas && !outcome.executionRevert && /out of gas/i.test(inner.error))
    outcome.outOfGas = 'callGasLimit'
  return outcome
}
