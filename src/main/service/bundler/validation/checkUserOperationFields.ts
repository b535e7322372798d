import type { UserOperationV06 } from '../../chain/types'
import { calculatePreVerificationGas } from '../estimation/calculatePreVerificationGas'
import { bundleGasOf } from '../mempool/mempool'
import { invalidFields } from '../userOperationErrors'

export type CheckUserOperationFieldsParameters = {
  userOperation: UserOperationV06
  /** Base fee of the latest block. */
  baseFeePerGas: bigint
  /** Largest gas one operation may need in a bundle. */
  maxOperationGas: bigint
}

const UINT120_MAX = (1n << 120n) - 1n

/**
 * The checks eth_sendUserOperation makes before simulating: field shapes the EntryPoint would reject,
 * preVerificationGas floor, fee fields against each other and the base fee, and total gas. Throws -32602
 * naming the field and the expected value.
 */
export function checkUserOperationFields({
  userOperation: op,
  baseFeePerGas,
  maxOperationGas,
}: CheckUserOperationFieldsParameters) {
  if (op.initCode !== '0x' && op.initCode.length < 42) {
    throw invalidFields('initCode must be empty or start with a 20-byte factory address')
  }
  if (op.paymasterAndData !== '0x' && op.paymasterAndData.length < 42) {
    throw invalidFields('paymasterAndData must be empty or start with a 20-byte paymaster address')
  }
  for (const field of [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'maxFeePerGas',
    'maxPriorityFeePerGas',
  ] as const) {
    if (op[field] > UINT120_MAX)
      throw invalidFields(`AA94 gas values overflow: ${field} does not fit in 120 bits`)
  }
  const minimum = calculatePreVerificationGas({ userOperation: op, includePaymasterAndData: false })
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
  const gas = bundleGasOf(op)
  if (gas > maxOperationGas) {
    throw invalidFields(
      `the operation's gas limits (${gas} in total) exceed what a bundle can carry (${maxOperationGas})`,
    )
  }
}
