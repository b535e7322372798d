import type { Chain, UserOperationV06 } from '../../chain/types'
import { encodeSimulateValidation } from './encodeEntryPointCalls'
import { callEntryPointSimulation, type SimulationOptions } from './simulateEntryPoint'

export type StakeInfo = { stake: bigint; unstakeDelaySec: bigint }

export type ValidationResult = {
  returnInfo: {
    preOpGas: bigint
    prefund: bigint
    sigFailed: boolean
    /** Which signature failed, where the EntryPoint tells (v0.7+ return each entity's validationData). */
    sigFailedBy?: 'account' | 'paymaster'
    validAfter: number
    validUntil: number
    paymasterContext: `0x${string}`
  }
  senderInfo: StakeInfo
  factoryInfo: StakeInfo
  paymasterInfo: StakeInfo
  /** Present when the account uses a signature aggregator (`ValidationResultWithAggregation`). */
  aggregatorInfo?: { aggregator: `0x${string}`; stakeInfo: StakeInfo }
}

/**
 * `EntryPoint.simulateValidation(op)` with eth_call, decoded. Throws FailedOpError (`AA..` reason) when the
 * EntryPoint rejects the op, SimulationRevertedError for anything else.
 */
export async function simulateValidation(
  chain: Chain,
  op: UserOperationV06,
  options: SimulationOptions = {},
): Promise<ValidationResult> {
  const data = encodeSimulateValidation(op)
  const decoded = await callEntryPointSimulation(
    chain,
    data,
    ['ValidationResult', 'ValidationResultWithAggregation'],
    options,
  )
  if (decoded.errorName === 'ValidationResult') {
    const [returnInfo, senderInfo, factoryInfo, paymasterInfo] = decoded.args
    return { returnInfo: { ...returnInfo }, senderInfo, factoryInfo, paymasterInfo }
  }
  if (decoded.errorName === 'ValidationResultWithAggregation') {
    const [returnInfo, senderInfo, factoryInfo, paymasterInfo, aggregatorInfo] = decoded.args
    return { returnInfo: { ...returnInfo }, senderInfo, factoryInfo, paymasterInfo, aggregatorInfo }
  }
  throw new Error(`unexpected ${decoded.errorName}`)
}
