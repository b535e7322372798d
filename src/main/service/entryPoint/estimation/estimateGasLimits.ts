import type { Hex } from 'viem'
import {
  attachFailureTrace,
  executionReverted,
  type FailureTrace,
  readAaCode,
  userOperationRejected,
} from '../errors'
import { minBigInt } from './gasMargins'
import type { ShapeCache } from './shapeCache'

/** A version's gas limits by field name (v0.6: verification and call; v0.7+: also the paymaster's two). */
export type GasLimitSet<Name extends string> = Record<Name, bigint>

/** What one traced simulation of an operation at given limits found. */
export type SimulationOutcome<Name extends string> = {
  /** The limit that was too small, or false. */
  outOfGas: Name | false
  failedOp?: string
  /**
   * The client's error for `failedOp`, made where the simulation's revert data and version are known
   * (entryPoint/errors.ts `rejectEntryPointRevert`: the EntryPoint's revert data with it, v0.9's errors classified).
   */
  rejection?: Error
  executionRevert?: { reason: string | null; data: Hex | undefined }
  /**
   * The paymaster's postOp reverted (not out of gas) where the EntryPoint goes on (v0.7+: the operation is
   * reverted, its paymaster still charged): the operation could only fail, so the estimate says so (AA50).
   */
  postOpRevert?: { reason: string | null; data: Hex | undefined }
  otherRevert?: string
  /** The traced simulation, kept with the error a failure throws (the frame that failed is named from it). */
  trace?: FailureTrace
  validAfter: number
  validUntil: number
}

export type EstimateGasLimitsParameters<
  Name extends string,
  Outcome extends SimulationOutcome<Name>,
  Subject,
> = {
  /**
   * The first simulation's limits: generous, but small enough that a prefund check does not fail on them. Their
   * key order is the order in which a limit raised by the search is tightened again.
   */
  trial: GasLimitSet<Name>
  /** Simulates the operation with exactly these limits (a trial operation; the paymaster signs it here). */
  simulate: (limits: GasLimitSet<Name>) => Promise<Outcome>
  /** The limits a measured run gives: what each phase used plus its margin. */
  deriveLimits: (measured: Outcome) => GasLimitSet<Name>
  /** Limits earlier estimates of the same shape passed with, and what an estimate is for (its shape's key). */
  guesses: ShapeCache<Subject, GasLimitSet<Name>>
  subject: Subject
}

export type GasLimitsEstimate<Name extends string, Outcome> = {
  /** The lowest limits a simulation passed with. */
  limits: GasLimitSet<Name>
  /** The run that passed with `limits`. */
  verified: Outcome
  /** The run the limits were derived from. */
  measured: Outcome
  simulations: number
  /** The limits an operation of this shape passed with last time were measured and verified by one run. */
  fromGuess: boolean
}

/** The limit a call phase runs on; every other limit bounds validation or postOp (an AA40-style rejection). */
const CALL_LIMIT = 'callGasLimit'
/** Raised this many times (x8 each) when the trial itself runs out of gas. */
const MAX_TRIAL_RAISES = 2
/**
 * Simulations with exact limits after the trial: the first check, then a search on the limit that ran out (x1.25
 * until it passes, then halving the gap) and the tightening of a raised limit. Six lets a v0.7 operation, whose
 * four limits may each need a raise, finish its search; v0.6's two limits end earlier (the loop stops when nothing
 * is left to tighten), so the sixth round only runs where five would have kept a looser limit.
 */
const MAX_VERIFY_ROUNDS = 6

/**
 * The estimation loop every version runs (rundler's estimate_verification_gas, written once):
 * 0. an operation of this shape passed with some limits last time: simulate with them first; gas used does not
 *    depend on the limits when nothing runs out, so when the limits derived from that run are the guess itself, the
 *    one run both measured and verified them;
 * 1. otherwise measure with generous trial limits (raised when even those run out);
 * 2. derive limits (measured + margin); 3. simulate with exactly those, searching a limit that runs out upward and
 *    keeping the lowest that passed.
 * Throws the EntryPoint's AAxx rejection (-32500/-32501) or -32521 when the call phase reverts.
 */
export async function estimateGasLimits<
  Name extends string,
  Outcome extends SimulationOutcome<Name>,
  Subject,
>(params: EstimateGasLimitsParameters<Name, Outcome, Subject>): Promise<GasLimitsEstimate<Name, Outcome>> {
  type Limits = GasLimitSet<Name>
  const { guesses, subject, deriveLimits } = params
  const names = Object.keys(params.trial) as Name[]
  let simulations = 0
  const simulate = (limits: Limits) => {
    simulations++
    return params.simulate(limits)
  }
  const done = (limits: Limits, verified: Outcome, measured: Outcome, fromGuess: boolean) => ({
    limits,
    verified,
    measured,
    simulations,
    fromGuess,
  })

  const guess = guesses.get(subject)
  if (guess) {
    const check = await simulate(guess)
    const passed =
      !check.outOfGas &&
      !check.failedOp &&
      !check.executionRevert &&
      !check.postOpRevert &&
      !check.otherRevert
    if (passed && sameLimits(names, deriveLimits(check), guess)) return done(guess, check, check, true)
    guesses.forget(subject)
  }

  let trialLimits: Limits = { ...params.trial }
  let trial = await simulate(trialLimits)
  for (let raise = 0; raise < MAX_TRIAL_RAISES && trial.outOfGas; raise++) {
    const raised: Name = trial.outOfGas
    const raisedLimits = { ...trialLimits, [raised]: trialLimits[raised] * 8n }
    const outcome = await simulate(raisedLimits)
    // More than the simulation can give the operation (the EntryPoint's AA95): the run that ran out tells where.
    if (outcome.failedOp && readAaCode(outcome.failedOp) === 'AA95') break
    trialLimits = raisedLimits
    trial = outcome
  }
  const measured = throwOnFailure(trial)

  const first = deriveLimits(measured)
  const search = Object.fromEntries(
    names.map((name) => [name, { value: first[name], failed: 0n, passed: trialLimits[name] }]),
  ) as Record<Name, { value: bigint; failed: bigint; passed: bigint }>
  const limitsOf = (key: 'value' | 'passed') =>
    Object.fromEntries(names.map((name) => [name, search[name][key]])) as Limits
  let verified: Outcome | undefined
  for (let round = 0; round < MAX_VERIFY_ROUNDS; round++) {
    const check = await simulate(limitsOf('value'))
    if (!check.outOfGas) {
      throwOnFailure(check)
      // Only limits that passed unchanged on the first try are a guess worth trying first next time.
      if (round === 0) guesses.remember(subject, first)
      verified = check
      for (const name of names) search[name].passed = search[name].value
      // Tighten a limit that was raised, while rounds remain.
      const loose = names.find(
        (k) => search[k].failed > 0n && search[k].passed - search[k].failed > search[k].passed / 50n,
      )
      if (!loose) break
      search[loose].value = (search[loose].failed + search[loose].passed) / 2n
      continue
    }
    const limit = search[check.outOfGas]
    limit.failed = limit.value
    limit.value = verified
      ? (limit.value + limit.passed) / 2n
      : minBigInt((limit.value * 5n) / 4n + 1n, limit.passed)
  }
  if (!verified) {
    // Fall back to the limits known to pass.
    for (const name of names) search[name].value = search[name].passed
    verified = throwOnFailure(await simulate(limitsOf('value')))
  }
  return done(limitsOf('passed'), verified, measured, false)
}

/** The client's error for a simulation that did not pass: the AAxx rejection, the call's revert, or running out. */
export function throwOnFailure<Outcome extends SimulationOutcome<string>>(outcome: Outcome): Outcome {
  const error = failureOf(outcome)
  if (error) throw attachFailureTrace(error, outcome.trace)
  return outcome
}

function failureOf(outcome: SimulationOutcome<string>): Error | null {
  if (outcome.failedOp) return outcome.rejection ?? userOperationRejected(outcome.failedOp)
  if (outcome.executionRevert)
    return executionReverted(outcome.executionRevert.reason, outcome.executionRevert.data)
  if (outcome.postOpRevert)
    return userOperationRejected(
      `AA50 postOp reverted${outcome.postOpRevert.reason ? `: ${outcome.postOpRevert.reason}` : ''}`,
      outcome.postOpRevert.data ? { revertData: outcome.postOpRevert.data } : {},
    )
  if (outcome.outOfGas === CALL_LIMIT)
    return executionReverted('out of gas even with the largest call gas tried')
  if (outcome.outOfGas)
    return userOperationRejected(
      `AA40 over verificationGasLimit: ${outcome.outOfGas} runs out even at its largest trial`,
    )
  if (outcome.otherRevert) return executionReverted(`simulation reverted: ${outcome.otherRevert}`)
  return null
}

function sameLimits<Name extends string>(
  names: readonly Name[],
  a: GasLimitSet<Name>,
  b: GasLimitSet<Name>,
): boolean {
  return names.every((name) => a[name] === b[name])
}
