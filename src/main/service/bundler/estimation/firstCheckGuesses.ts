import type { Hex, RpcStateOverride } from 'viem'
import type { Chain } from '../../chain/types'
import type { PartialUserOperation } from '../userOperationSchema'

/** The limits of an estimate's first exact-limits simulation. */
export type FirstCheck = { verificationGasLimit: bigint; callGasLimit: bigint }

/** What an estimate is for: the operation, and the state override it is simulated with. */
export type EstimateSubject = { userOperation: PartialUserOperation; stateOverride?: RpcStateOverride }

export type FirstCheckGuesses = {
  /** The limits the last estimate of an operation of this shape checked first (and passed with). */
  get: (subject: EstimateSubject) => FirstCheck | undefined
  remember: (subject: EstimateSubject, check: FirstCheck) => void
  forget: (subject: EstimateSubject) => void
}

const MAX_ENTRIES = 1024

/**
 * Operations of one shape (same sender, same call selector and lengths, same paymaster, with or without
 * initCode, same state override) usually get the same limits again: the estimator simulates the last ones
 * first, and when what that run measured gives the same limits, that run both measured and verified them. The
 * guess only decides what is simulated first; what is returned is always what a simulation with exactly those
 * limits passed.
 */
export function createFirstCheckGuesses(): FirstCheckGuesses {
  const guesses = new Map<string, FirstCheck>()
  return {
    get: (subject) => guesses.get(shapeOf(subject)),
    remember(subject, check) {
      const key = shapeOf(subject)
      guesses.delete(key)
      guesses.set(key, check)
      if (guesses.size > MAX_ENTRIES) guesses.delete(guesses.keys().next().value as string)
    },
    forget: (subject) => {
      guesses.delete(shapeOf(subject))
    },
  }
}

const perChain = new WeakMap<Chain, FirstCheckGuesses>()

/** The guesses of one chain, shared by the bundler's and the paymaster's estimates. */
export function firstCheckGuessesOf(chain: Chain): FirstCheckGuesses {
  let guesses = perChain.get(chain)
  if (!guesses) {
    guesses = createFirstCheckGuesses()
    perChain.set(chain, guesses)
  }
  return guesses
}

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
