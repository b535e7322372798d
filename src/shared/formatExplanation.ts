import type { ExplainedCall, ExplainedPhase, Explanation } from './api/explanation.js'

/** 1234567 → `1,234,567` (gas figures are decimal strings). */
const group = (decimal: string) => decimal.replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** `Ledger.debit(address,uint256)`, else the address (and `?` for an undecoded function). */
function frameName(contract: string | null, fn: string | null, address: string | null): string {
  const who = contract ?? address ?? 'contract creation'
  return fn ? `${who}.${fn}` : contract && address ? `${contract} ${address}` : who
}

function phaseLine(phase: ExplainedPhase): string[] {
  const gas = `${group(phase.gasUsed)} / ${group(phase.gasLimit)} ${phase.limitField} (${phase.headroomPercent} % left)`
  const lines = [`  ${phase.name.padEnd(21)} ${phase.outcome.padEnd(10)} ${gas}`]
  const verdict = [
    phase.signature ? `signature ${phase.signature}` : null,
    phase.aggregator ? `aggregator ${phase.aggregator}` : null,
    phase.validity
      ? `valid ${phase.validity.unit === 'block' ? 'in blocks' : 'from'} ${phase.validity.validAfter} to ${phase.validity.validUntil ?? 'no expiry'}${phase.validity.state ? ` (${phase.validity.state} at ${phase.validity.checkedAt})` : ''}`
      : null,
  ].filter((part) => part !== null)
  if (verdict.length > 0) lines.push(`    ${verdict.join('; ')}`)
  if (phase.error) {
    const { error } = phase
    lines.push(
      `    at ${frameName(error.contract, error.function, error.address)}${error.address && error.contract ? ` ${error.address}` : ''}: ${error.reason}`,
    )
  }
  return lines
}

function callLines(call: ExplainedCall, depth: number): string[] {
  const failed = call.error ? ` ✗ ${call.reason?.text ?? call.error}` : ''
  const line = `${'  '.repeat(depth + 1)}${frameName(call.contract, call.function, call.to)} (gas ${group(call.gasUsed)})${failed}`
  return [line, ...call.calls.flatMap((child) => callLines(child, depth + 1))]
}

/**
 * An explanation as readable lines, for a test's output or a terminal: the status and reason, each phase with its
 * gas against its limit, its signature and window, and the frame a failure started in; the gas account with
 * preVerificationGas's parts; the call tree; the events; the balance changes; the notes.
 */
export function formatExplanation(explanation: Explanation): string {
  const e = explanation
  const where = [
    `EntryPoint ${e.entryPoint}`,
    e.transactionHash ? `transaction ${e.transactionHash}` : null,
    e.blockNumber ? `block ${e.blockNumber}` : null,
  ].filter((part) => part !== null)
  const lines = [`UserOperation ${e.userOpHash}: ${e.status} (${where.join(', ')})`]
  if (e.reason) lines.push(`reason: ${e.reason}`)
  if (e.phases.length > 0) lines.push('phases:', ...e.phases.flatMap(phaseLine))
  if (e.authorization) {
    const a = e.authorization
    lines.push(
      `EIP-7702 authorization to ${a.address}: ${a.applied ? 'applied' : a.applied === false ? 'not applied' : 'not known'}${a.reasons.length > 0 ? ` (${a.reasons.join('; ')})` : ''}`,
    )
  }
  if (e.gas) {
    const { gas } = e
    const used = gas.actualGasUsed
      ? `${group(gas.actualGasUsed)} used of ${group(gas.limitTotal)} carried (${gas.usedPercent} %)`
      : `${group(gas.limitTotal)} carried`
    const pvg = gas.preVerificationGas
    lines.push(
      `gas: ${used}; preVerificationGas ${group(pvg.carried)} carried, ${group(pvg.calculated)} calculated (${pvg.calculator}):`,
      ...pvg.parts.map((part) => `  ${part.name}: ${group(String(Math.round(part.gas)))}`),
    )
  }
  if (e.calls) lines.push('calls:', ...callLines(e.calls, 0))
  if (e.events.length > 0)
    lines.push(
      'events:',
      ...e.events.map(
        (event) =>
          `  ${event.contract ?? event.address} ${event.name ?? `unknown event ${event.topics?.[0] ?? ''}`}${event.args ? ` ${JSON.stringify(event.args)}` : ''}`,
      ),
    )
  if (e.balanceChanges.length > 0)
    lines.push(
      'balance changes:',
      ...e.balanceChanges.map(
        (change) =>
          `  ${change.contract ? `${change.contract} ` : ''}${change.address} ${change.symbol ?? change.asset} ${change.delta} (${change.before ?? '?'} → ${change.after ?? '?'})`,
      ),
    )
  if (e.notes.length > 0) lines.push('notes:', ...e.notes.map((note) => `  - ${note}`))
  return lines.join('\n')
}
