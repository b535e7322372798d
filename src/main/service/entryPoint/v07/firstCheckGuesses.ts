import type { RpcStateOverride } from 'viem'
import type { Chain } from '../../chain/types'
import { createShapeCache, perChain, type ShapeCache } from '../estimation/shapeCache'
import type { PartialUserOperationV07 } from './userOperation'

/** The four gas limits of a v0.7/v0.8 operation. */
export type GasLimitsV07 = {
  verificationGasLimit: bigint
  callGasLimit: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** What an estimate is for: the operation, and the state override it is simulated with. */
export type EstimateSubject = { userOperation: PartialUserOperationV07; stateOverride?: RpcStateOverride }

export type FirstCheckGuesses = ShapeCache<EstimateSubject, GasLimitsV07>

/** The limits estimates of each operation shape passed with first, per chain (bundler and paymaster share them). */
export const firstCheckGuessesOf: (chain: Chain) => FirstCheckGuesses = perChain(() =>
  createShapeCache<EstimateSubject, GasLimitsV07>(shapeOf),
)

/** Operations of one shape (sender, deployment, call selector and length, paymaster, state override) get the same limits. */
function shapeOf({ userOperation: op, stateOverride }: EstimateSubject): string {
  return [
    op.sender.toLowerCase(),
    op.factory ? `${op.factory.toLowerCase()}:${op.factoryData.length}` : 'deployed',
    `${op.callData.slice(0, 10).toLowerCase()}:${op.callData.length}`,
    op.paymaster?.toLowerCase() ?? '',
    op.paymasterData.length,
    op.signature.length,
    op.eip7702Auth ? op.eip7702Auth.address.toLowerCase() : '',
    stateOverride ? JSON.stringify(stateOverride) : '',
  ].join('|')
}
