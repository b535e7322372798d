import type { Hex } from 'viem'
import { decodeRevertReason, getRevertData } from '../../chain/entryPoint/decodeRevert'
import { FailedOpError, SimulationRevertedError } from '../../chain/entryPoint/errors'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { SimulationOptions } from '../types'
import { type DecodedEntryPointError, decodeEntryPointError } from './decodeEntryPointError'

export type DecodedEntryPointRevert = DecodedEntryPointError

/**
 * Runs an EntryPoint simulation (which always reverts) with eth_call and decodes the revert data with the EntryPoint
 * ABI. `FailedOp` becomes a FailedOpError; results the caller expects are returned; anything else throws a
 * SimulationRevertedError with the decoded reason.
 */
export async function callEntryPointSimulation(
  chain: Chain,
  data: Hex,
  expected: readonly string[],
  options: SimulationOptions = {},
): Promise<DecodedEntryPointRevert> {
  let revertData: Hex | null = null
  let callError: unknown
  try {
    const params: unknown[] = [{ to: chain.addresses.entryPoint, data }, options.blockTag ?? 'latest']
    if (options.stateOverride) params.push(options.stateOverride)
    await requestRpc(chain.publicClient, 'eth_call', params)
  } catch (err) {
    callError = err
    revertData = getRevertData(err)
  }
  if (callError === undefined) {
    throw new SimulationRevertedError(
      'Simulation did not revert (is the EntryPoint v0.6 deployed?)',
      null,
      null,
    )
  }
  if (!revertData || revertData === '0x') {
    const message = callError instanceof Error ? callError.message.split('\n')[0] : String(callError)
    throw new SimulationRevertedError(`Simulation failed without revert data: ${message}`, null, null, {
      cause: callError,
    })
  }
  let decoded: DecodedEntryPointRevert
  try {
    decoded = decodeEntryPointError(revertData)
  } catch {
    const reason = decodeRevertReason(revertData, options.extraAbi)
    throw new SimulationRevertedError(`Simulation reverted: ${reason ?? revertData}`, reason, revertData, {
      data: { revertData },
    })
  }
  if (decoded.errorName === 'FailedOp') {
    const [opIndex, reason] = decoded.args
    throw new FailedOpError(Number(opIndex), reason, {
      data: { opIndex: Number(opIndex), reason, revertData },
    })
  }
  if (!expected.includes(decoded.errorName)) {
    const reason = `${decoded.errorName}(${(decoded.args ?? []).map(String).join(', ')})`
    throw new SimulationRevertedError(`Simulation reverted: ${reason}`, reason, revertData, {
      data: { revertData },
    })
  }
  return decoded
}
