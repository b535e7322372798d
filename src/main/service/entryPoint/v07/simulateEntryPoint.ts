import {
  type Address,
  decodeErrorResult,
  decodeFunctionResult,
  type Hex,
  type RpcStateOverride,
  toFunctionSelector,
} from 'viem'
import { decodeRevertReason, getRevertData } from '../../chain/entryPoint/decodeRevert'
import { FailedOpError, SimulationRevertedError } from '../../chain/entryPoint/errors'
import { mergeStateOverride } from '../../chain/node/mergeStateOverride'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { EntryPointErrorReading, SimulationOptions, ValidationResult } from '../types'
import { parseValidationData, readBlockRange, type ValidityOptions } from '../validationData'
import { entryPointSimulationsAbi } from './encodeEntryPointCalls'

export { parseValidationData, type ValidityOptions }

/**
 * The EntryPoint a simulation runs on: its address, the EntryPointSimulations code put there for the call, and the
 * reader of its version's own errors (v0.9's custom errors).
 */
export type SimulationTarget = {
  address: Address
  simulationsCode: Hex
  readEntryPointError: (revertData: Hex) => EntryPointErrorReading | null
}

/** Reads the version's own errors besides FailedOp (none on v0.7 and v0.8). */
type ReadEntryPointError = SimulationTarget['readEntryPointError']

const FAILED_OP = toFunctionSelector('FailedOp(uint256,string)')
const FAILED_OP_WITH_REVERT = toFunctionSelector('FailedOpWithRevert(uint256,string,bytes)')

/**
 * v0.7 and v0.8 have no simulation functions on the EntryPoint: the simulations run with EntryPointSimulations'
 * code put at the EntryPoint's address by a state override (as the reference bundler does), so the EntryPoint's
 * storage (deposits, nonces) is the real one. Other overrides of the EntryPoint (a nonce slot) are kept.
 */
export function withSimulationCode(
  target: SimulationTarget,
  stateOverride: RpcStateOverride | undefined,
): RpcStateOverride {
  return mergeStateOverride(stateOverride, target.address, { code: target.simulationsCode })
}

type RawValidationResult = {
  returnInfo: {
    preOpGas: bigint
    prefund: bigint
    accountValidationData: bigint
    paymasterValidationData: bigint
    paymasterContext: Hex
  }
  senderInfo: { stake: bigint; unstakeDelaySec: bigint }
  factoryInfo: { stake: bigint; unstakeDelaySec: bigint }
  paymasterInfo: { stake: bigint; unstakeDelaySec: bigint }
  aggregatorInfo: { aggregator: Address; stakeInfo: { stake: bigint; unstakeDelaySec: bigint } }
}

/** The v0.7 ValidationResult in the shape the bundler reads for every version. */
function toValidationResult(raw: RawValidationResult, options: ValidityOptions = {}): ValidationResult {
  const accountData = parseValidationData(raw.returnInfo.accountValidationData)
  const paymasterData = parseValidationData(raw.returnInfo.paymasterValidationData)
  const accountBlocks = readBlockRange(accountData, options)
  const paymasterBlocks = readBlockRange(paymasterData, options)
  // A block range is no time window: left out of validAfter/validUntil.
  const account = accountBlocks ? { ...accountData, validAfter: 0, validUntil: 0 } : accountData
  const paymaster = paymasterBlocks ? { ...paymasterData, validAfter: 0, validUntil: 0 } : paymasterData
  if (account.aggregator > 1n) {
    throw new SimulationRevertedError(
      'the account asks for a signature aggregator, which this bundler does not serve',
      null,
      null,
    )
  }
  const untils = [account.validUntil, paymaster.validUntil].filter((u) => u !== 0)
  return {
    returnInfo: {
      preOpGas: raw.returnInfo.preOpGas,
      prefund: raw.returnInfo.prefund,
      sigFailed: account.aggregator === 1n || paymaster.aggregator === 1n,
      sigFailedBy:
        account.aggregator === 1n ? 'account' : paymaster.aggregator === 1n ? 'paymaster' : undefined,
      validAfter: Math.max(account.validAfter, paymaster.validAfter),
      validUntil: untils.length > 0 ? Math.min(...untils) : 0,
      ...(accountBlocks || paymasterBlocks
        ? {
            blockRanges: {
              ...(accountBlocks ? { account: accountBlocks } : {}),
              ...(paymasterBlocks ? { paymaster: paymasterBlocks } : {}),
            },
          }
        : {}),
      paymasterContext: raw.returnInfo.paymasterContext,
    },
    senderInfo: raw.senderInfo,
    factoryInfo: raw.factoryInfo,
    paymasterInfo: raw.paymasterInfo,
  }
}

/**
 * Revert data of a v0.7/v0.8 simulation as the error a client gets: FailedOp → FailedOpError with the AAxx reason
 * (FailedOpWithRevert adds the inner revert's reason), anything else SimulationRevertedError.
 */
export function toSimulationError(
  revertData: Hex,
  cause?: unknown,
  readEntryPointError?: ReadEntryPointError,
): Error {
  const selector = revertData.slice(0, 10).toLowerCase()
  if (selector === FAILED_OP || selector === FAILED_OP_WITH_REVERT) {
    try {
      const { args } = decodeErrorResult({ abi: entryPointSimulationsAbi, data: revertData })
      const opIndex = Number(args?.[0] ?? 0)
      const inner = args?.[2] as Hex | undefined
      const innerReason = inner ? (decodeRevertReason(inner) ?? (inner === '0x' ? null : inner)) : null
      const reason = `${String(args?.[1] ?? '')}${innerReason ? `: ${innerReason}` : ''}`
      return new FailedOpError(opIndex, reason, { data: { opIndex, reason, revertData }, cause })
    } catch {}
  }
  const reason =
    readEntryPointError?.(revertData)?.text ?? decodeRevertReason(revertData, entryPointSimulationsAbi)
  return new SimulationRevertedError(`Simulation reverted: ${reason ?? revertData}`, reason, revertData, {
    data: { revertData },
    cause,
  })
}

/** Decodes the output of a traced simulateValidation: its return data, or the revert that rejected the op. */
export function decodeValidationOutputV07(
  output: Hex,
  options: ValidityOptions & { readEntryPointError?: ReadEntryPointError } = {},
): ValidationResult {
  const selector = output.slice(0, 10).toLowerCase()
  if (selector === FAILED_OP || selector === FAILED_OP_WITH_REVERT)
    throw toSimulationError(output, undefined, options.readEntryPointError)
  let raw: RawValidationResult
  try {
    raw = decodeFunctionResult({
      abi: entryPointSimulationsAbi,
      functionName: 'simulateValidation',
      data: output,
    }) as unknown as RawValidationResult
  } catch (err) {
    throw toSimulationError(output, err, options.readEntryPointError)
  }
  return toValidationResult(raw, options)
}

/** eth_call of an EntryPointSimulations function at the EntryPoint's address; the return data, or the error. */
export async function callSimulation(
  chain: Chain,
  target: SimulationTarget,
  data: Hex,
  options: SimulationOptions = {},
): Promise<Hex> {
  try {
    return await requestRpc<Hex>(chain.publicClient, 'eth_call', [
      { to: target.address, data },
      options.blockTag ?? 'latest',
      withSimulationCode(target, options.stateOverride),
    ])
  } catch (err) {
    const revertData = getRevertData(err)
    if (!revertData || revertData === '0x') {
      const message = err instanceof Error ? err.message.split('\n')[0] : String(err)
      throw new SimulationRevertedError(`Simulation failed without revert data: ${message}`, null, null, {
        cause: err,
      })
    }
    throw toSimulationError(revertData, err, target.readEntryPointError)
  }
}

/** `simulateValidation` through EntryPointSimulations, decoded into the bundler's ValidationResult. */
export async function simulateValidationV07(
  chain: Chain,
  target: SimulationTarget,
  data: Hex,
  options: SimulationOptions & ValidityOptions = {},
): Promise<ValidationResult> {
  return decodeValidationOutputV07(await callSimulation(chain, target, data, options), {
    ...options,
    readEntryPointError: target.readEntryPointError,
  })
}
