import type { ExplainedPhase, PhaseError } from './types'

/** `Ledger.debit(address,uint256) at 0x…` (`unknown contract at 0x…` for a contract the service does not know). */
export function describeFailingFrame(error: PhaseError): string {
  return `${error.contract ?? 'unknown contract'}${error.function ? `.${error.function}` : ''} at ${error.address}`
}

/**
 * One line for a failed phase: `execution reverted in Ledger.debit(address,uint256) at 0x…: InsufficientBalance(5, 7)`,
 * or for an out-of-gas halt `execution out of gas in Burner.burn(uint256): raise callGasLimit (80000 given)`. The
 * explanation's reason and the errors clients read (estimate, send) are written by this one function.
 */
export function describeFailedPhase(phase: ExplainedPhase): string | null {
  const { error } = phase
  if (!error) return null
  if (error.raise) return `${phase.name} ${error.reason}`
  return `${phase.name} reverted in ${describeFailingFrame(error)}: ${error.reason}`
}
