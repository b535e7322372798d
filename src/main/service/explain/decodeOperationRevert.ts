import { decodeAbiParameters, type Hex, slice } from 'viem'
import type { ContractBook } from './contractBook'
import { decodeRevertData } from './decodeRevertData'

/**
 * The reason of an operation's failed execution or postOp, from the revert data its EntryPoint event carries
 * (UserOperationRevertReason, PostOpRevertReason), decoded with every error the service knows:
 * `InsufficientBalance(5, 7)`, `postOp reverted: PostOpFailed(4210)` (v0.7+ wrap the paymaster's revert in
 * `PostOpReverted(bytes)`, unwrapped here). Empty data has no reason; an unknown selector stays raw, never guessed.
 */
export function decodeOperationRevert(
  { phase, data }: { phase: 'execution' | 'postOp'; data: Hex },
  book: Pick<ContractBook, 'errors'>,
): string | null {
  let decoded = decodeRevertData(data, book.errors)
  const inner = decoded.name === 'PostOpReverted' ? rawArgument(data) : null
  if (inner) decoded = decodeRevertData(inner, book.errors)
  const reason = decoded.kind === 'empty' ? null : decoded.kind === 'unknown' ? (inner ?? data) : decoded.text
  return phase === 'postOp' ? `postOp reverted${reason ? `: ${reason}` : ''}` : reason
}

/** The `bytes` argument of `PostOpReverted(bytes)`, raw. */
function rawArgument(data: Hex): Hex | null {
  try {
    return decodeAbiParameters([{ type: 'bytes' }], slice(data, 4))[0]
  } catch {
    return null
  }
}
