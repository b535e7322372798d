import type { Hex } from 'viem'
import { userOperationRejected } from '../errors'
import type { ValidationResult } from '../types'
import { type DecodedEntryPointError, decodeEntryPointError } from './decodeEntryPointError'

/** The revert data of a traced v0.6 simulateValidation (it always reverts) as its ValidationResult, or the rejection. */
export function decodeValidationOutput(output: Hex): ValidationResult {
  if (!output || output === '0x') throw userOperationRejected('simulateValidation returned no result')
  let decoded: DecodedEntryPointError
  try {
    decoded = decodeEntryPointError(output)
  } catch {
    throw userOperationRejected(`simulateValidation reverted with unknown data ${output.slice(0, 138)}`, {
      revertData: output,
    })
  }
  if (decoded.errorName === 'FailedOp') throw userOperationRejected(decoded.args[1], { revertData: output })
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
