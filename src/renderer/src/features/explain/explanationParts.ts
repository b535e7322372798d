import type {
  ExplainedCall,
  ExplainedPhase,
  Explanation,
  ValidityWindow,
} from '../../../../shared/api/explanation'
import { formatDateTime, formatNumber } from '../../lib/format'

/** How each status reads, and its tone: a final failure is bad, a would-be failure a warning. */
const STATUS_TONES: Record<string, 'ok' | 'bad' | 'warn' | 'info'> = {
  mined: 'ok',
  'would-succeed': 'ok',
  reverted: 'bad',
  rejected: 'bad',
  dropped: 'bad',
  'would-revert': 'warn',
  pending: 'info',
}

/** The badge tone of an explanation's status (an unknown status is neutral-info, not an error). */
export function statusToneOf(status: Explanation['status'] | string): 'ok' | 'bad' | 'warn' | 'info' {
  return STATUS_TONES[status] ?? 'info'
}

/** A gas figure (decimal string) as a bigint; 0 when it is not a number. */
function toGas(value: string | null | undefined): bigint {
  try {
    return BigInt(value ?? '0')
  } catch {
    return 0n
  }
}

/** The share of its limit a phase used, 0–100 (one decimal); 0 for a phase without a limit. */
export function usedPercentOf(phase: Pick<ExplainedPhase, 'gasUsed' | 'gasLimit'>): number {
  const limit = toGas(phase.gasLimit)
  if (limit === 0n) return 0
  const used = toGas(phase.gasUsed)
  return Math.min(100, Number((used * 1000n) / limit) / 10)
}

/**
 * A decoded argument as one line: numbers and addresses as the service sent them (decimal strings), arrays and
 * tuples in brackets, objects as JSON.
 */
export function formatArgument(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value)
  if (Array.isArray(value)) return `[${value.map(formatArgument).join(', ')}]`
  return JSON.stringify(value)
}

/** A call's decoded arguments as `a, b, c`; empty when it has none. */
export function formatArguments(args: readonly unknown[] | undefined): string {
  return (args ?? []).map(formatArgument).join(', ')
}

/** Longest argument shown whole in a line: an address (42 characters) or a 32-byte word fits. */
const SHORT_ARGUMENT = 66

/**
 * An argument cut to fit a line: long hex as its ends and its size in bytes, anything else (a packed operation, a
 * tuple) as its start; the full text goes in a tooltip.
 */
export function shortenArgument(text: string, max = SHORT_ARGUMENT): string {
  if (text.length <= max) return text
  if (/^0x[0-9a-fA-F]*$/.test(text))
    return `${text.slice(0, 10)}…${text.slice(-8)} (${(text.length - 2) / 2} bytes)`
  return `${text.slice(0, max - 1)}…`
}

/** A call's arguments on one line, each cut to fit (shortenArgument). */
export function formatArgumentsShort(args: readonly unknown[] | undefined): string {
  return (args ?? []).map((arg) => shortenArgument(formatArgument(arg))).join(', ')
}

/**
 * A call's name: `Vault.withdraw(uint256)` when decoded, `Vault` with its raw selector when only the contract is
 * known, or null for an unknown contract (the caller shows the address and raw input).
 */
export function callLabel(call: Pick<ExplainedCall, 'contract' | 'function'>): string | null {
  if (call.contract && call.function) return `${call.contract}.${call.function}`
  if (call.function) return call.function
  return call.contract
}

/** Whether a failed call is where the failure started: it failed and none of the calls it made did. */
export function isFailureOrigin(call: ExplainedCall): boolean {
  return call.error !== null && !call.calls.some((child) => child.error !== null)
}

/** Whether the call or one it made (at any depth) failed: the tree opens on the path to a failure. */
export function leadsToFailure(call: ExplainedCall): boolean {
  return call.error !== null || call.calls.some(leadsToFailure)
}

/** The number of calls in the tree (the root included). */
export function countCalls(call: ExplainedCall): number {
  return 1 + call.calls.reduce((sum, child) => sum + countCalls(child), 0)
}

/** Signed delta as it reads: `+100`, `-5`. */
export function formatDelta(delta: string): string {
  return delta.startsWith('-') ? delta : `+${delta}`
}

/** A bound of a validity window in its unit: `block 1,234`, or a timestamp's date. */
export function formatValidityBound(unit: ValidityWindow['unit'], value: string): string {
  return unit === 'block' ? `block ${formatNumber(value)}` : formatDateTime(Number(value))
}

/**
 * A validity window as it reads, in its unit: `always (no expiry)` for an unbounded one, else its bounds
 * (`from block 10 until block 20`, `from the start until 2026-11-29 10:00:00`, `from … (no expiry)`).
 */
export function formatValidityRange(
  validity: Pick<ValidityWindow, 'unit' | 'validAfter' | 'validUntil'>,
): string {
  const { unit, validAfter, validUntil } = validity
  if (validAfter === '0' && validUntil === null) return 'always (no expiry)'
  const from = validAfter === '0' ? 'from the start' : `from ${formatValidityBound(unit, validAfter)}`
  return `${from} ${validUntil === null ? '(no expiry)' : `until ${formatValidityBound(unit, validUntil)}`}`
}

/** Whether the time a window was checked at falls outside it (expired, or not yet valid): it stands out. */
export function isOutsideWindow(validity: Pick<ValidityWindow, 'state'>): boolean {
  return validity.state === 'expired' || validity.state === 'not yet valid'
}
