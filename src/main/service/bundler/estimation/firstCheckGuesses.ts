import type { Hex } from 'viem'
import type { PartialUserOperation } from '../userOperationSchema'

/** The limits of an estimate's first exact-limits simulation. */
export type FirstCheck = { verificationGasLimit: bigint; callGasLimit: bigint }

export type FirstCheckGuesses = {
  /** The limits the last estimate of an operation of this shape checked first (and passed with). */
  get: (userOperation: PartialUserOperation) => FirstCheck | undefined
  remember: (userOperation: PartialUserOperation, check: FirstCheck) => void
  forget: (userOperation: PartialUserOperation) => void
}

const MAX_ENTRIES = 1024

/**
 * Operations of one shape (same sender, same call selector and lengths, same paymaster, with or without
 * initCode) usually get the same limits again: the estimator simulates the last ones first, and when what that
 * run measured gives the same limits, that run both measured and verified them. The guess only decides what is
 * simulated first; what is returned is always what a simulation with exactly those limits passed.
 */
export function createFirstCheckGuesses(): FirstCheckGuesses {
  const guesses = new Map<string, FirstCheck>()
  return {
    get: (op) => guesses.get(shapeOf(op)),
    remember(op, check) {
      const key = shapeOf(op)
      guesses.delete(key)
      guesses.set(key, check)
      if (guesses.size > MAX_ENTRIES) guesses.delete(guesses.keys().next().value as string)
    },
    forget: (op) => {
      guesses.delete(shapeOf(op))
    },
  }
}

function shapeOf(op: PartialUserOperation): string {
  return [
    op.sender.toLowerCase(),
    op.initCode === '0x' ? 'deployed' : `init:${op.initCode.length}`,
    selectorAndLength(op.callData),
    op.paymasterAndData.slice(0, 42).toLowerCase(),
    op.paymasterAndData.length,
    op.signature.length,
  ].join('|')
}

function selectorAndLength(data: Hex): string {
  return `${data.slice(0, 10).toLowerCase()}:${data.length}`
}
