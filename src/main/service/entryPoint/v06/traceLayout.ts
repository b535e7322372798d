import { type Abi, getAbiItem, toFunctionSelector } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'
import type { PhaseGasLimit, TraceLayout, UserOperationPhase } from '../types'
import type { UserOperationV06 } from './userOperation'

const USER_OPERATION = '(address,uint256,bytes,bytes,uint256,uint256,uint256,uint256,uint256,bytes,bytes)'

/** v0.6's phase calls: `UserOperation` in validation, `postOp(mode, context, actualGasCost)`. */
export const traceLayoutV06: TraceLayout = {
  createSender: toFunctionSelector('function createSender(bytes)'),
  validateUserOp: toFunctionSelector(`function validateUserOp(${USER_OPERATION},bytes32,uint256)`),
  validatePaymasterUserOp: toFunctionSelector(
    `function validatePaymasterUserOp(${USER_OPERATION},bytes32,uint256)`,
  ),
  innerHandleOp: toFunctionSelector(
    getAbiItem({ abi: entryPointAbi as Abi, name: 'innerHandleOp' }) as Parameters<
      typeof toFunctionSelector
    >[0],
  ),
  postOp: toFunctionSelector('function postOp(uint8,bytes,uint256)'),
}

/** v0.6 has one verification limit for deployment, both validations and postOp; execution has callGasLimit. */
export function phaseGasLimitsV06(op: UserOperationV06): Record<UserOperationPhase, PhaseGasLimit> {
  const verification = { field: 'verificationGasLimit', value: op.verificationGasLimit }
  return {
    deployment: verification,
    'account-validation': verification,
    'paymaster-validation': verification,
    execution: { field: 'callGasLimit', value: op.callGasLimit },
    postOp: verification,
  }
}
