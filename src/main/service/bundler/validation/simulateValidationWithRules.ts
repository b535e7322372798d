import { availableParallelism } from 'node:os'
import type { Address, Hex, RpcStateOverride } from 'viem'
import { FailedOpError, SimulationRevertedError } from '../../chain/entryPoint/errors'
import { type TraceCallRequest, traceCall } from '../../chain/node/traceCall'
import type { Chain } from '../../chain/types'
import { rejectEntryPointRevert, userOperationRejected } from '../../entryPoint/errors'
import type {
  EntryPointModule,
  UserOperationBase,
  UserOperationEntities,
  ValidationResult,
} from '../../entryPoint/types'
import { ChainError } from '../../errors'
import { createConcurrencyLimit } from '../../util/createConcurrencyLimit'
import { checkValidationRules, type RuleViolation } from './checkValidationRules'
import { KeccakPreimages } from './keccakPreimages'
import { traceValidationNatively, traceValidationWithStack } from './traceValidationNatively'
import { type ValidationTrace, validationTracer } from './validationTracer'

/** Keccak preimages seen by JavaScript traces, shared by all validations of the process (facts of arithmetic). */
const knownPreimages = new KeccakPreimages()
/**
 * Native traces in flight at once: one per core. Sixteen concurrent traces (a few milliseconds of the node's CPU
 * each) made every light call wait behind them: with this limit the 16-client bench's estimate p50 went from 23.8 to
 * 11.9 ms, while send-to-receipt went from 126 to 143 ms (two alternating runs each, safe mode).
 */
const limitTraces = createConcurrencyLimit(Math.max(1, availableParallelism()))

export type SimulateValidationWithRulesParameters = {
  chain: Chain
  /** The EntryPoint version module the operation is for. */
  entryPoint: EntryPointModule
  userOperation: UserOperationBase
  /** Trace the validation and apply the ERC-7562 rules (safe mode) instead of a plain eth_call. */
  safeMode: boolean
  stateOverride?: RpcStateOverride
  /** Gas for the simulation call. */
  gas: bigint
  /** What counts as staked for the rules (default: checkValidationRules' MIN_STAKE_WEI and one day). */
  minStake?: bigint
  minUnstakeDelaySec?: bigint
}

export type SimulateValidationWithRulesReturnType = {
  result: ValidationResult
  /** Broken ERC-7562 rules (always empty in unsafe mode). */
  violations: RuleViolation[]
  /** How the rules were checked: not at all (unsafe), on native traces, or with the JavaScript tracer. */
  tracer: 'none' | 'native' | 'javascript'
  /** Contracts whose storage the validation read or wrote, lowercase (empty in unsafe mode). */
  storageAddresses: Address[]
}

/**
 * EntryPoint.simulateValidation for eth_sendUserOperation. Unsafe mode: one eth_call. Safe mode: the
 * EntryPoint's result and what the validation frames did, checked against ERC-7562. First from the node's
 * native tracers (a tenth of the cost), which decide unless they cannot tell everything (a gap) or find a storage
 * violation; then from the struct log with stacks (a third of the cost), which tells everything the JavaScript
 * tracer does but the keccak preimages, known when they were seen before or are the sender's and entities' mapping
 * slots; then from debug_traceCall with the JavaScript validation tracer, whose verdict stands. What the struct log
 * without stacks records is exact (frames, opcodes, calls, creations, out of gas) or, for storage, a superset:
 * a slot it cannot pin counts as every slot the contract touched, and without keccak preimages a slot may look
 * unassociated, so a storage violation is confirmed on the stacks (exact slots, and every hash that can make a slot
 * associated with a known preimage) or by the JavaScript tracer, while an opcode, call or creation violation is the
 * one it would report. A FailedOp becomes an RpcError with the AAxx reason.
 */
export async function simulateValidationWithRules(
  params: SimulateValidationWithRulesParameters,
): Promise<SimulateValidationWithRulesReturnType> {
  const { chain, entryPoint, userOperation } = params
  if (!params.safeMode) {
    try {
      return {
        result: await entryPoint.simulateValidation(chain, userOperation, {
          stateOverride: params.stateOverride,
        }),
        violations: [],
        tracer: 'none',
        storageAddresses: [],
      }
    } catch (err) {
      throw toRejection(params.entryPoint, err)
    }
  }
  const { request, stateOverride } = entryPoint.validationCall(
    userOperation,
    params.gas,
    params.stateOverride,
  )
  const decided = await decideOnNativeTraces(params, request, stateOverride)
  if (decided)
    return {
      result: decided.result,
      violations: decided.violations,
      tracer: 'native',
      storageAddresses: listStorageAddresses(decided.trace),
    }
  let trace: ValidationTrace
  try {
    trace = await traceCall<ValidationTrace>(chain, request, {
      tracer: validationTracer,
      stateOverrides: stateOverride,
    })
  } catch (err) {
    throw new ChainError(
      `Safe-mode validation needs debug_traceCall with JavaScript tracers, which the node refused (${
        (err as Error).message.split('\n')[0]
      }). Use an anvil or geth node, or run with --unsafe.`,
      { cause: err },
    )
  }
  knownPreimages.learn(trace.keccak)
  const result = decodeValidationOutput(params, trace)
  return {
    result,
    violations: checkTrace(trace, result, params),
    tracer: 'javascript',
    storageAddresses: listStorageAddresses(trace),
  }
}

/** The contracts whose storage any validation frame touched. */
function listStorageAddresses(trace: Pick<ValidationTrace, 'frames'>): Address[] {
  const addresses = new Set<Address>()
  for (const frame of trace.frames)
    for (const address of Object.keys(frame.access)) addresses.add(address.toLowerCase() as Address)
  return [...addresses]
}

/** Rules about storage, which the native traces can only over-report (see simulateValidationWithRules). */
const isStorageRule = (violation: RuleViolation) => violation.rule.startsWith('STO-')

type NativeVerdict = {
  result: ValidationResult
  violations: RuleViolation[]
  trace: Pick<ValidationTrace, 'frames'>
}

/**
 * The EntryPoint's result and the broken rules when the native traces decide; null when the JavaScript tracer has
 * to. First the struct log without stacks (the cheapest), which decides unless it cannot tell everything or finds a
 * storage violation (its slots are a superset); then the struct log with stacks, exact but for the keccak preimages,
 * which decides when every hash that can make an accessed slot associated has a known preimage.
 */
async function decideOnNativeTraces(
  params: SimulateValidationWithRulesParameters,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
): Promise<NativeVerdict | null> {
  const native = await limitTraces(() => traceValidationNatively(params.chain, request, stateOverride)).catch(
    () => null,
  )
  if (!native) return null
  if ('gap' in native) return decideOnStackTrace(params, request, stateOverride)
  const { sender, factory, paymaster } = params.entryPoint.readEntities(params.userOperation)
  // An EXTCODESIZE may have probed an account without code other than the sender being deployed (OP-041, OP-042).
  if (native.codelessAccounts.some((address) => address !== sender))
    return decideOnStackTrace(params, request, stateOverride)
  const result = decodeValidationOutput(params, native)
  const keccak = knownPreimages.preimagesFor(listSlots(native), listEntities({ sender, factory, paymaster }))
  const violations = checkTrace({ ...native, keccak }, result, params)
  if (violations.some(isStorageRule)) return decideOnStackTrace(params, request, stateOverride)
  return { result, violations, trace: native }
}

/**
 * The verdict on the struct log with stacks (traceValidationWithStack), with the preimages of its hashes from those
 * remembered; null (the JavaScript tracer decides, and its preimages are remembered) when it has a gap or a hash
 * near an accessed slot has a preimage not known yet.
 */
async function decideOnStackTrace(
  params: SimulateValidationWithRulesParameters,
  request: TraceCallRequest,
  stateOverride: RpcStateOverride | undefined,
): Promise<NativeVerdict | null> {
  const entities = params.entryPoint.readEntities(params.userOperation)
  const trace = await limitTraces(() =>
    traceValidationWithStack(params.chain, request, stateOverride, entities.sender),
  ).catch(() => null)
  if (!trace || 'gap' in trace) return null
  const keccak = knownPreimages.preimagesOfBases(trace.keccakHashes, listSlots(trace), listEntities(entities))
  if (!keccak) return null
  const result = decodeValidationOutput(params, trace)
  return { result, violations: checkTrace({ ...trace, keccak }, result, params), trace }
}

/** Every slot any validation frame read or wrote. */
function listSlots(trace: Pick<ValidationTrace, 'frames'>): Hex[] {
  return trace.frames.flatMap((frame) =>
    Object.values(frame.access).flatMap((access) => [
      ...Object.keys(access.reads),
      ...Object.keys(access.writes),
    ]),
  ) as Hex[]
}

function listEntities({ sender, factory, paymaster }: UserOperationEntities): Address[] {
  return [sender, factory, paymaster].filter((address): address is Address => address !== null)
}

function checkTrace(
  trace: ValidationTrace,
  result: ValidationResult,
  { entryPoint, userOperation, minStake, minUnstakeDelaySec }: SimulateValidationWithRulesParameters,
): RuleViolation[] {
  return checkValidationRules({
    trace,
    entities: entryPoint.readEntities(userOperation),
    entryPoint: entryPoint.address,
    stakes: { sender: result.senderInfo, factory: result.factoryInfo, paymaster: result.paymasterInfo },
    paymasterContext: result.returnInfo.paymasterContext,
    minStake,
    minUnstakeDelaySec,
  })
}

/** The traced validation's output through the version's decoder, failures as the client's rejection. */
function decodeValidationOutput(
  { entryPoint }: SimulateValidationWithRulesParameters,
  trace: Pick<ValidationTrace, 'output'>,
): ValidationResult {
  if (!trace.output || trace.output === '0x')
    throw userOperationRejected('simulateValidation returned no result')
  try {
    return entryPoint.decodeValidationOutput(trace.output)
  } catch (err) {
    throw toRejection(entryPoint, err)
  }
}

/** A simulation's failure as the client's rejection, as every surface tells it (entryPoint/errors.ts). */
function toRejection(entryPoint: EntryPointModule, err: unknown): unknown {
  if (err instanceof FailedOpError) return rejectEntryPointRevert(entryPoint, err.reason, readRevertData(err))
  if (err instanceof SimulationRevertedError) {
    // No revert data: the node failed, not the operation.
    if (!err.revertData) return new ChainError(err.shortMessage, { cause: err })
    return rejectEntryPointRevert(entryPoint, err.reason ?? err.shortMessage, err.revertData)
  }
  return err
}

/** The EntryPoint's revert data a FailedOpError keeps in its data. */
function readRevertData(err: FailedOpError): Hex | undefined {
  const data = err.data as { revertData?: Hex } | undefined
  return data?.revertData
}
