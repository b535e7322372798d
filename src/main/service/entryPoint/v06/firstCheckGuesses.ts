import type { Hex, RpcStateOverride } from 'viem'
import type { Chain } from '../../chain/types'
import { createShapeCache, perChain, type ShapeCache } from '../estimation/shapeCache'
import type { PartialUserOperation } from './userOperation'

/** The limits of an estimate's first exact-limits simulation. */
export type FirstCheck = { verificationGasLimit: bigint; callGasLimit: bigint }

/** What an estimate is for: the operation, and the state override it is simulated with. */
export type EstimateSubject = { userOperation: PartialUserOperation; stateOverride?: RpcStateOverride }

export type FirstCheckGuesses = ShapeCache<EstimateSubject, FirstCheck>

/**
 * Operations of one shape (same sender, same call selector and lengths, same paymaster, with or without
 * initCode, same state override) usually get the same limits again: the estimator simulates the last ones
 * first, and when what that run measured gives the same limits, that run both measured and verified them.
 */
export function createFirstCheckGuesses(): FirstCheckGuesses {
  return createShapeCache(shapeOf)
}

/** The guesses of one chain, shared by the bundler's and the paymaster's estimates. */
export const firstCheckGuessesOf: (chain: Chain) => FirstCheckGuesses = perChain(createFirstCheckGuesses)

function shapeOf({ userOperation: op, stateOverride }: EstimateSubject): string {
  return [
    op.sender.toLowerCase(),
    op.initCode === '0x' ? 'deployed' : `init:${op.initCode.length}`,
    selectorAndLength(op.callData),
    op.paymasterAndData.slice(0, 42).toLowerCase(),
    op.paymasterAndData.length,
    op.signature.length,
    stateOverride ? JSON.stringify(stateOverride) : '',
  ].join('|')
}

function selectorAndLength(data: Hex): string {
  return `${data.slice(0, 10).toLowerCase()}:${data.length}`
}
