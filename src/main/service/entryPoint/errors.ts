import type { Hex } from 'viem'
import { RpcError } from '../errors'
import { Erc7769Code, RpcCode } from '../errors/rpcCodes'
import type { CallFrame } from './estimation/callFrame'
import type { EntryPointErrorReading, EntryPointModule, UserOperationBase } from './types'

/** Machine-readable detail sent as JSON-RPC `error.data` and kept with the recorded UserOperation. */
export type RejectionData = {
  /** `AA21` etc. when the EntryPoint gave one. */
  aaCode?: string
  /** ERC-7562 rule ids that were broken (safe mode). */
  rules?: string[]
  revertData?: Hex
  [key: string]: unknown
}

/** Reads the `AAxx` code at the start of an EntryPoint reason. */
export function readAaCode(reason: string): string | null {
  return /\bAA\d\d\b/.exec(reason)?.[0] ?? null
}

/**
 * ERC-7769 code for an EntryPoint `FailedOp` reason: AA3x/AA5x are the paymaster's (-32501), AA24/AA34 bad
 * signatures (-32507), AA22/AA32 time range (-32503), everything else -32500.
 */
export function codeForFailedOp(reason: string): number {
  const aa = readAaCode(reason)
  if (aa === 'AA24' || aa === 'AA34') return Erc7769Code.invalidSignature
  if (aa === 'AA22' || aa === 'AA32') return Erc7769Code.expiresShortly
  if (aa?.startsWith('AA3') || aa?.startsWith('AA5')) return Erc7769Code.simulatePaymasterValidation
  return Erc7769Code.simulateValidation
}

/** The EntryPoint rejected the UserOperation (`FailedOp`); the message keeps the AAxx text for viem and the SDK. */
export function userOperationRejected(reason: string, data: RejectionData = {}): RpcError {
  const aaCode = readAaCode(reason)
  return new RpcError(reason, codeForFailedOp(reason), { data: { ...data, ...(aaCode ? { aaCode } : {}) } })
}

/**
 * The client's error for one of the EntryPoint's own errors besides FailedOp (v0.9's custom errors), the same at
 * every surface (estimate, send, the paymaster's estimate): its text (with `detail` after it), and the code its
 * reading deserves: -32602 for what handleOps finds in the fields before any contract runs, the AA code's (AA30:
 * -32501), else the phase's (the paymaster's -32501, the account's or the bundle's -32500); never -32521, which is
 * the execution's. `data` carries the AA code, the phase and the revert data.
 */
export function entryPointErrorRejected(reading: EntryPointErrorReading, detail?: string): RpcError {
  const code = reading.fields
    ? RpcCode.invalidParams
    : reading.aaCode
      ? codeForFailedOp(reading.aaCode)
      : reading.phase === 'paymaster-validation' || reading.phase === 'postOp'
        ? Erc7769Code.simulatePaymasterValidation
        : Erc7769Code.simulateValidation
  return new RpcError(detail ? `${reading.text}: ${detail}` : reading.text, code, {
    data: {
      ...(reading.aaCode ? { aaCode: reading.aaCode } : {}),
      ...(reading.phase ? { phase: reading.phase } : {}),
      revertData: reading.revertData,
    },
  })
}

/**
 * The client's error for a simulation the EntryPoint reverted: one of the version's own errors (read by its module)
 * as `entryPointErrorRejected` tells it, else the FailedOp `reason` with its code; the revert data in `data` either
 * way.
 */
export function rejectEntryPointRevert(
  entryPoint: Pick<EntryPointModule, 'readEntryPointError'>,
  reason: string,
  revertData: Hex | null | undefined,
): RpcError {
  const reading = revertData ? entryPoint.readEntryPointError(revertData) : null
  if (reading) return entryPointErrorRejected(reading)
  return userOperationRejected(reason, revertData && revertData !== '0x' ? { revertData } : {})
}

/** A field is malformed or below a floor (-32602, "invalid fields" in ERC-7769). */
export function invalidFields(message: string, data?: RejectionData): RpcError {
  return new RpcError(message, RpcCode.invalidParams, { data })
}

/** The call phase reverted during estimation (-32521). */
export function executionReverted(reason: string | null, revertData?: Hex): RpcError {
  return new RpcError(
    `UserOperation reverted during execution phase${reason ? `: ${reason}` : ''}`,
    Erc7769Code.executionReverted,
    { data: revertData ? { revertData } : undefined },
  )
}

/** ERC-7562 validation rules were broken (-32502). */
export function validationRulesBroken(messages: string[], rules: string[]): RpcError {
  return new RpcError(
    `UserOperation violates validation rules: ${messages.join('; ')}`,
    Erc7769Code.opcodeValidation,
    {
      data: { rules },
    },
  )
}

/** The traced simulation a rejection came from: the operation as simulated and its call tree (callTracer). */
export type FailureTrace = { frame: CallFrame; userOperation: UserOperationBase }

const failureTraces = new WeakMap<Error, FailureTrace>()

/**
 * Keeps the traced simulation a rejection came from with the error (not sent to the client): the layer that may
 * decode frames (explain/, through the bundler) names the failing frame from it without tracing again.
 */
export function attachFailureTrace<E extends Error>(err: E, trace: FailureTrace | undefined): E {
  if (trace) failureTraces.set(err, trace)
  return err
}

/** The traced simulation kept with a rejection, if it came from one. */
export function readFailureTrace(err: unknown): FailureTrace | undefined {
  return err instanceof Error ? failureTraces.get(err) : undefined
}
