import { type Abi, getAbiItem, toFunctionSelector } from 'viem'
import type { PhaseGasLimit, TraceLayout, UserOperationPhase } from '../types'
import type { UserOperationV07 } from './userOperation'

const PACKED_USER_OPERATION = '(address,uint256,bytes,bytes,bytes32,uint256,bytes32,bytes,bytes)'

/**
 * v0.7+'s phase calls: `PackedUserOperation` in validation, `postOp(mode, context, actualGasCost,
 * actualUserOpFeePerGas)`, and `innerHandleOp` as the version's ABI declares it.
 */
export function createTraceLayoutV07(abi: Abi): TraceLayout {
  return {
    createSender: toFunctionSelector('function createSender(bytes)'),
    validateUserOp: toFunctionSelector(`function validateUserOp(${PACKED_USER_OPERATION},bytes32,uint256)`),
    validatePaymasterUserOp: toFunctionSelector(
      `function validatePaymasterUserOp(${PACKED_USER_OPERATION},bytes32,uint256)`,
    ),
    innerHandleOp: toFunctionSelector(
      getAbiItem({ abi, name: 'innerHandleOp' }) as Parameters<typeof toFunctionSelector>[0],
    ),
    postOp: toFunctionSelector('function postOp(uint8,bytes,uint256,uint256)'),
  }
}

/** v0.7+ give the paymaster its own two limits; deployment and the account's validation share verificationGasLimit. */
export function phaseGasLimitsV07(op: UserOperationV07): Record<UserOperationPhase, PhaseGasLimit> {
  const verification = { field: 'verificationGasLimit', value: op.verificationGasLimit }
  return {
    deployment: verification,
    'account-validation': verification,
    'paymaster-validation': {
      field: 'paymasterVerificationGasLimit',
      value: op.paymasterVerificationGasLimit,
    },
    execution: { field: 'callGasLimit', value: op.callGasLimit },
    postOp: { field: 'paymasterPostOpGasLimit', value: op.paymasterPostOpGasLimit },
  }
}
