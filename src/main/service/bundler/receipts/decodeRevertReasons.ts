import type { Hex } from 'viem'
import { buildContractBook } from '../../explain/contractBook'
import { decodeOperationRevert } from '../../explain/decodeOperationRevert'
import type { ExplainContext } from '../../explain/explainContext'
import type { UserOperationOutcome } from '../bundling/parseBundleLogs'

/** Decodes the revert reasons of a bundle's outcomes in place; what the runner and the recoveries call. */
export type DecodeRevertReasons = (outcomes: ReadonlyMap<Hex, UserOperationOutcome>) => Promise<void>

/**
 * The reason of each failed execution or postOp of a bundle, decoded with every error the service knows (the
 * EntryPoints', its own contracts', the zoo's and every registered contract's) before its record and receipt are
 * written: `InsufficientBalance(5, 7)` where the log holds `0xc8f2…`. A bundle with no revert data builds nothing.
 */
export function createRevertReasonDecoder(context: ExplainContext): DecodeRevertReasons {
  return async (outcomes) => {
    const reverted = [...outcomes.values()].filter((outcome) => outcome.revert)
    if (reverted.length === 0) return
    const book = await buildContractBook({
      chain: context.chain,
      entryPoints: context.entryPoints.list,
      store: context.store,
    })
    for (const outcome of reverted)
      if (outcome.revert) outcome.revertReason = decodeOperationRevert(outcome.revert, book)
  }
}
