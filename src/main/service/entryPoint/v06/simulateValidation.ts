import type { Chain } from '../../chain/types'
import type { SimulationOptions, ValidationResult } from '../types'
import { encodeSimulateValidation } from './encodeEntryPointCalls'
import { callEntryPointSimulation } from './simulateEntryPoint'
import type { UserOperationV06 } from './userOperation'

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
