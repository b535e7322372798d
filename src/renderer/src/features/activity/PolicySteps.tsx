import type { SponsorshipStep } from '../../../../shared/api/sponsorships'
import { Badge } from '../../components/Feedback'
import { keyed } from '../../lib/format'

/** A sponsorship decision's policy steps, in evaluation order, with their outcome and detail. */
export function PolicySteps({ steps }: { steps: SponsorshipStep[] }) {
  if (!steps.length) return <div className="muted">No policy steps recorded.</div>
  return (
    <table className="table compact policy-steps" data-testid="policy-steps">
      <tbody>
        {keyed(steps).map(({ item: s, key }) => (
          <tr key={key} data-testid={`policy-step-${s.step}`} data-outcome={s.outcome}>
            <td className="policy-step-mark">
              {s.outcome === 'pass' ? '✓' : s.outcome === 'fail' ? '✗' : '–'}
            </td>
            <td className="policy-step-name">
              <strong data-testid="policy-step-name">{s.step}</strong>
            </td>
            <td className="policy-step-outcome">
              <Badge tone={s.outcome === 'pass' ? 'ok' : s.outcome === 'fail' ? 'bad' : 'neutral'}>
                {s.outcome}
              </Badge>
            </td>
            <td className="policy-step-detail">{s.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
