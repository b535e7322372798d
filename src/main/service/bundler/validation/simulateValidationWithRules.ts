import type { RpcStateOverride } from 'viem'
import {
  type DecodedEntryPointError,
  decodeEntryPointError,
} from '../../chain/entryPoint/decodeEntryPointError'
import { encodeSimulateValidation } from '../../chain/entryPoint/encodeEntryPointCall'
import { FailedOpError, SimulationRevertedError } from '../../chain/entryPoint/errors'
import { simulateValidation, type ValidationResult } from '../../chain/entryPoint/simulateValidation'
import { traceCall } from '../../chain/node/traceCall'
import type { Chain, UserOperationV06 } from '../../chain/types'
import { ChainError } from '../../errors'
import { userOperationRejected } from '../userOperationErrors'
import { checkValidationRules, type RuleViolation } from './checkValidationRules'
import { type ValidationTrace, validationTracer } from './validationTracer'

export type SimulateValidationWithRulesParameters = {
  chain: Chain
  userOperation: UserOperationV06
  /** Trace the validation and apply the ERC-7562 rules (safe mode) instead of a plain eth_call. */
  safeMode: boolean
  stateOverride?: RpcStateOverride
  /** Gas for the simulation call. */
  gas: bigint
}

export type SimulateValidationWithRulesReturnType = {
  result: ValidationResult
  /** Broken ERC-7562 rules (always empty in unsafe mode). */
  violations: RuleViolation[]
}

/**
 * EntryPoint.simulateValidation for eth_sendUserOperation. Unsafe mode: one eth_call. Safe mode: one
 * debug_traceCall with the validation tracer, which yields both the EntryPoint's result and what the
 * validation frames did, checked against ERC-7562. A FailedOp becomes an RpcError with the AAxx reason.
 */
export async function simulateValidationWithRules(
  params: SimulateValidationWithRulesParameters,
): Promise<SimulateValidationWithRulesReturnType> {
  const { chain, userOperation, stateOverride } = params
  if (!params.safeMode) {
    try {
      return { result: await simulateValidation(chain, userOperation, { stateOverride }), violations: [] }
    } catch (err) {
      throw toRejection(err)
    }
  }
  let trace: ValidationTrace
  try {
    trace = await traceCall<ValidationTrace>(
      chain,
      {
        to: chain.addresses.entryPoint,
        data: encodeSimulateValidation(userOperation),
        gas: params.gas,
      },
      { tracer: validationTracer, stateOverrides: stateOverride },
    )
  } catch (err) {
    throw new ChainError(
      `Safe-mode validation needs debug_traceCall with JavaScript tracers, which the node refused (${
        (err as Error).message.split('\n')[0]
      }). Use an anvil or geth node, or run with --unsafe.`,
      { cause: err },
    )
  }
  const result = decodeValidationOutput(trace)
  const violations = checkValidationRules({
    trace,
    userOperation,
    entryPoint: chain.addresses.entryPoint,
    stakes: { sender: result.senderInfo, factory: result.factoryInfo, paymaster: result.paymasterInfo },
    paymasterContext: result.returnInfo.paymasterContext,
  })
  return { result, violations }
}

function decodeValidationOutput(trace: ValidationTrace): ValidationResult {
  if (!trace.output || trace.output === '0x')
    throw userOperationRejected('simulateValidation returned no result')
  let decoded: DecodedEntryPointError
  try {
    decoded = decodeEntryPointError(trace.output)
  } catch {
    throw userOperationRejected(
      `simulateValidation reverted with unknown data ${trace.output.slice(0, 138)}`,
      {
        revertData: trace.output,
      },
    )
  }
  if (decoded.errorName === 'FailedOp') throw userOperationRejected(decoded.args[1])
  if (decoded.errorName === 'ValidationResult') {
    const [returnInfo, senderInfo, factoryInfo, paymasterInfo] = decoded.args
    return { returnInfo: { ...returnInfo }, senderInfo, factoryInfo, paymasterInfo }
  }
  if (decoded.errorName === 'ValidationResultWithAggregation') {
    const [returnInfo, senderInfo, factoryInfo, paymasterInfo, aggregatorInfo] = decoded.args
    return { returnInfo: { ...returnInfo }, senderInfo, factoryInfo, paymasterInfo, aggregatorInfo }
  }
  throw userOperationRejected(`simulateValidation reverted with ${decoded.errorName}`)
}

function toRejection(err: unknown): unknown {
  if (err instanceof FailedOpError) return userOperationRejected(err.reason)
  if (err instanceof SimulationRevertedError) {
    // No revert data: the node failed, not the operation.
    if (!err.revertData) return new ChainError(err.shortMessage, { cause: err })
    return userOperationRejected(err.reason ?? err.shortMessage, { revertData: err.revertData })
  }
  return err
}
