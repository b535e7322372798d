import type { Explanation } from '../../../../shared/api/explanation'
import { Badge, ErrorBanner } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { keyed } from '../../lib/format'
import { AuthorizationCheck } from './AuthorizationCheck'
import { BalanceChanges } from './BalanceChanges'
import { CallTree } from './CallTree'
import { EventsList } from './EventsList'
import { statusToneOf } from './explanationParts'
import { GasAccount } from './GasAccount'
import { PhaseTimeline } from './PhaseTimeline'

/**
 * The account of one UserOperation, sent or simulated: its status and why it failed, its phases against their gas
 * limits (validations with their signature and window), its EIP-7702 authorization, its gas carried against used,
 * the call tree, the balances it changed and the events it emitted, and what the answer cannot show.
 */
export function ExplanationView({
  explanation,
  testId = 'explanation',
}: {
  explanation: Explanation
  testId?: string
}) {
  const failed = explanation.status !== 'mined' && explanation.status !== 'would-succeed'
  return (
    <div className="stack explanation" data-testid={testId} data-status={explanation.status}>
      <div>
        <Badge tone={statusToneOf(explanation.status)} testId="explain-status">
          {explanation.status}
        </Badge>
      </div>
      {explanation.reason ? (
        <ErrorBanner title={failed ? 'Why' : 'Note'} message={explanation.reason} testId="explain-reason" />
      ) : null}
      {explanation.notes.length ? (
        <ul className="muted small" data-testid="explain-notes">
          {keyed(explanation.notes).map(({ item, key }) => (
            <li key={key}>{item}</li>
          ))}
        </ul>
      ) : null}
      <h3>Phases</h3>
      <PhaseTimeline phases={explanation.phases} />
      {explanation.authorization ? (
        <>
          <h3>EIP-7702 authorization</h3>
          <AuthorizationCheck authorization={explanation.authorization} />
        </>
      ) : null}
      {explanation.gas ? (
        <>
          <h3>Gas</h3>
          <GasAccount gas={explanation.gas} />
        </>
      ) : null}
      <h3>Call tree</h3>
      <CallTree root={explanation.calls} />
      <h3>Balance changes</h3>
      <BalanceChanges changes={explanation.balanceChanges} />
      <h3>Events</h3>
      <EventsList events={explanation.events} />
      <details className="details">
        <summary>Raw explanation</summary>
        <JsonView value={explanation} />
      </details>
    </div>
  )
}
