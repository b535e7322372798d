import { invalidFields } from '../../entryPoint/errors'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'

export type CheckUserOperationFieldsParameters = {
  entryPoint: EntryPointModule
  userOperation: UserOperationBase
  /** Base fee of the latest block. */
  baseFeePerGas: bigint
  /** Largest gas one operation may need in a bundle. */
  maxOperationGas: bigint
}

/**
 * The checks eth_sendUserOperation makes before simulating: field shapes the EntryPoint would reject,
 * preVerificationGas floor, fee fields against each other and the base fee, and total gas. Throws -32602
 * naming the field and the expected value.
 */
export function checkUserOperationFields({
  entryPoint,
  userOperation: op,
  baseFeePerGas,
  maxOperationGas,
}: CheckUserOperationFieldsParameters) {
  entryPoint.checkFields(op)
  const minimum = entryPoint.minimumPreVerificationGas(op)
  if (op.preVerificationGas < minimum) {
    throw invalidFields(
      `preVerificationGas too low: expected at least ${minimum}, got ${op.preVerificationGas}`,
      {
        field: 'preVerificationGas',
        minimum: minimum.toString(),
      },
    )
  }
  if (op.maxPriorityFeePerGas > op.maxFeePerGas) {
    throw invalidFields(
      `maxPriorityFeePerGas (${op.maxPriorityFeePerGas}) must not be higher than maxFeePerGas (${op.maxFeePerGas})`,
    )
  }
  if (op.maxFeePerGas < baseFeePerGas) {
    throw invalidFields(
      `maxFeePerGas too low: ${op.maxFeePerGas} is below the block base fee ${baseFeePerGas}`,
      {
        field: 'maxFeePerGas',
        minimum: baseFeePerGas.toString(),
      },
    )
  }
  const gas = entryPoint.bundleGasOf(op)
  if (gas > maxOperationGas) {
    throw invalidFields(
      `the operation's gas limits (${gas} in total) exceed what a bundle can carry (${maxOperationGas})`,
    )
  }
}
