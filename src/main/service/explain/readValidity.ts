import { type Address, getAddress, type Hex, size, slice } from 'viem'
import type { EntryPointModule } from '../entryPoint/types'
import type { OperationFrames } from './findOperationFrames'
import type { ExplainedPhase, ValidityWindow } from './types'

/** The block an operation's validity is checked against: the bundle's, or the latest for a simulation. */
export type CheckedAt = { timestamp: bigint; number: bigint } | null

type Verdict = Pick<ExplainedPhase, 'signature' | 'aggregator' | 'validity'>

const NO_EXPIRY = 0xffff_ffff_ffff

/** The validationData word a validation frame returned: validateUserOp's uint256, validatePaymasterUserOp's second. */
function validationDataOf(output: Hex | undefined, word: number): bigint | null {
  if (!output || size(output) < 32 * (word + 1)) return null
  return BigInt(slice(output, 32 * word, 32 * (word + 1)))
}

/**
 * Each validation phase's verdict from the validationData it returned (a reverted one returned none): its signature
 * (`invalid`: SIG_VALIDATION_FAILED), the aggregator it named, and its window in seconds or, on v0.9, in blocks,
 * placed against the block it was checked in.
 */
export function readValidationVerdicts(
  entryPoint: EntryPointModule,
  frames: OperationFrames,
  at: CheckedAt,
): Partial<Record<'account-validation' | 'paymaster-validation', Verdict>> {
  const read = (frame: OperationFrames['account-validation'], word: number): Verdict | undefined => {
    if (!frame || frame.error) return undefined
    const data = validationDataOf(frame.output, word)
    if (data === null) return undefined
    const reading = entryPoint.readValidationData(data)
    const aggregator =
      reading.aggregator > 1n
        ? getAddress(`0x${reading.aggregator.toString(16).padStart(40, '0')}`)
        : undefined
    const window = reading.blockRange
      ? windowOf('block', reading.blockRange.validAfterBlock, reading.blockRange.validUntilBlock, at?.number)
      : windowOf('timestamp', reading.validAfter, reading.validUntil, at?.timestamp)
    return {
      signature: reading.aggregator === 1n ? 'invalid' : 'valid',
      ...(aggregator ? { aggregator: aggregator as Address } : {}),
      validity: window,
    }
  }
  const account = read(frames['account-validation'], 0)
  const paymaster = read(frames['paymaster-validation'], 1)
  return {
    ...(account ? { 'account-validation': account } : {}),
    ...(paymaster ? { 'paymaster-validation': paymaster } : {}),
  }
}

function windowOf(
  unit: ValidityWindow['unit'],
  validAfter: number,
  validUntil: number,
  checkedAt: bigint | undefined,
): ValidityWindow {
  const until = validUntil === 0 || validUntil === NO_EXPIRY ? null : BigInt(validUntil)
  const state =
    checkedAt === undefined
      ? null
      : until !== null && checkedAt > until
        ? 'expired'
        : checkedAt < BigInt(validAfter)
          ? 'not yet valid'
          : 'valid'
  return {
    unit,
    validAfter: String(validAfter),
    validUntil: until === null ? null : until.toString(),
    checkedAt: checkedAt === undefined ? null : checkedAt.toString(),
    state,
  }
}
