import { checksumAddress } from '../chain/checksumAddress'
import type { PhaseGasLimit, UserOperationPhase } from '../entryPoint/types'
import type { ContractBook } from './contractBook'
import { decodeCallInput, explainFrameError, isOutOfGas } from './decodeCallTree'
import type { OperationFrames } from './findOperationFrames'
import type { ExplainedPhase, PhaseError, TracedFrame } from './types'

const PHASE_ORDER: UserOperationPhase[] = [
  'deployment',
  'account-validation',
  'paymaster-validation',
  'execution',
  'postOp',
]

/**
 * The frame a failure started in: from a failed frame, down through the last failed call whose revert data it
 * passed on unchanged (Solidity bubbles a callee's revert; an out-of-gas callee leaves its caller an empty revert),
 * so a `try`/`catch` that reverts with a reason of its own stops the walk at the catcher.
 */
export function findFailingFrame(frame: TracedFrame): TracedFrame {
  const failed = (frame.calls ?? []).filter((c) => c.error)
  const last = failed[failed.length - 1]
  if (!last) return frame
  const passedOn = (last.output ?? '0x') === (frame.output ?? '0x') || (isOutOfGas(last) && !frame.output)
  return passedOn ? findFailingFrame(last) : frame
}

/** Where and why a phase failed, naming the limit to raise when it ran out of gas. */
function explainPhaseError(frame: TracedFrame, limit: PhaseGasLimit, book: ContractBook): PhaseError {
  const origin = findFailingFrame(frame)
  const contract = book.lookup(origin.to)
  const decoded = contract ? decodeCallInput(contract.abi, origin.input) : null
  const revert = explainFrameError(origin, book) ?? {
    kind: 'unknown' as const,
    text: origin.error ?? '',
    data: '0x' as const,
  }
  const where = `${contract?.name ?? (origin.to && checksumAddress(origin.to))}${decoded ? `.${decoded.function}` : ''}`
  if (revert.kind === 'out-of-gas')
    return {
      address: origin.to ? checksumAddress(origin.to) : null,
      contract: contract?.name ?? null,
      function: decoded?.function ?? null,
      reason: `out of gas in ${where}: raise ${limit.field} (${limit.value} given)`,
      revert,
      raise: limit.field,
    }
  return {
    address: origin.to ? checksumAddress(origin.to) : null,
    contract: contract?.name ?? null,
    function: decoded?.function ?? null,
    reason: revert.text,
    revert,
  }
}

/** Each phase the operation reached, in the EntryPoint's order: gas used against its limit, outcome, failure. */
export function explainPhases(
  frames: OperationFrames,
  limits: Record<UserOperationPhase, PhaseGasLimit>,
  book: ContractBook,
): ExplainedPhase[] {
  return PHASE_ORDER.flatMap((name) => {
    const frame = frames[name]
    if (!frame) return []
    const limit = limits[name]
    const gasUsed = BigInt(frame.gasUsed)
    const error = frame.error ? explainPhaseError(frame, limit, book) : undefined
    const headroom = limit.value > 0n ? Number(((limit.value - gasUsed) * 1000n) / limit.value) / 10 : 0
    return [
      {
        name,
        gasUsed: gasUsed.toString(),
        gasLimit: limit.value.toString(),
        limitField: limit.field,
        headroomPercent: headroom,
        outcome: !error ? 'ok' : error.raise ? 'out of gas' : 'reverted',
        ...(error ? { error } : {}),
      } satisfies ExplainedPhase,
    ]
  })
}
