import { zeroAddress } from 'viem'
import { entryPointErrorRejected } from '../errors'
import { packPaymasterAndData } from '../v07/packUserOperation'
import type { UserOperationV07 } from '../v07/userOperation'
import { readRaisedErrorV09 } from './customErrors'
import { splitPaymasterSignature } from './paymasterSignature'

/**
 * What EntryPoint v0.9's handleOps checks of the paymaster's fields before any contract runs, in its order: a
 * paymaster of address zero (`InvalidPaymaster`, AA98, in `_copyUserOpToMemory`; its simulation contract would name
 * it PaymasterNotDeployed first, which handleOps never gets to), then a paymaster signature length past the data
 * (`InvalidPaymasterSignatureLength`, AA35, in `getUserOpHash`). Throws what every surface answers: the error
 * handleOps reverts with, its code and its revert data (entryPoint/errors.ts `entryPointErrorRejected`).
 */
export function checkPaymasterFieldsV09(op: UserOperationV07): void {
  if (!op.paymaster) return
  if (op.paymaster.toLowerCase() === zeroAddress)
    throw entryPointErrorRejected(readRaisedErrorV09('InvalidPaymaster', [zeroAddress]))
  splitPaymasterSignature(packPaymasterAndData(op))
}
