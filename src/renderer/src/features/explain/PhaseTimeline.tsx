import type { ExplainedPhase } from '../../../../shared/api/explanation'
import { Badge } from '../../components/Feedback'
import { formatNumber } from '../../lib/format'
import { usedPercentOf } from './explanationParts'
import { FailureReason } from './FailureReason'
import { SignatureVerdict } from './SignatureVerdict'
import { ValidityWindow } from './ValidityWindow'

/**
 * The operation's phases in the EntryPoint's order, each with its gas used against its limit (a bar, and the
 * headroom left) and its outcome; a validation phase its signature verdict and validity window; a failed phase says
 * where and why.
 */
export function PhaseTimeline({ phases }: { phases: ExplainedPhase[] }) {
  if (phases.length === 0)
    return (
      <div className="muted" data-testid="explain-phases-none">
        No phase ran on chain.
      </div>
    )
  return (
    <ol className="timeline phase-timeline" data-testid="explain-phases">
      {phases.map((phase) => {
        const used = usedPercentOf(phase)
        const failed = phase.outcome !== 'ok'
        return (
          <li
            key={phase.name}
            className={failed ? 'bad' : 'ok'}
            data-testid={`explain-phase-${phase.name}`}
            data-outcome={phase.outcome}
          >
            <div className="phase-head">
              <strong>{phase.name}</strong>
              <Badge tone={failed ? 'bad' : 'ok'} testId={`explain-phase-${phase.name}-outcome`}>
                {phase.outcome}
              </Badge>
              <span className="muted small mono">
                {formatNumber(phase.gasUsed)} of {formatNumber(phase.gasLimit)} gas ({phase.limitField}),{' '}
                {phase.headroomPercent}% headroom
              </span>
            </div>
            <div
              className="gauge phase-gauge"
              title={`${used}% of ${phase.limitField} used`}
              data-testid={`explain-phase-${phase.name}-gauge`}
            >
              <div className={`gauge-fill${failed ? ' gauge-fill-bad' : ''}`} style={{ width: `${used}%` }} />
            </div>
            {phase.signature || phase.aggregator || phase.validity ? (
              <div className="phase-verdict" data-testid={`explain-phase-${phase.name}-verdict`}>
                <SignatureVerdict
                  signature={phase.signature}
                  aggregator={phase.aggregator}
                  testId={`explain-phase-${phase.name}-signature`}
                />
                {phase.validity ? (
                  <ValidityWindow validity={phase.validity} testId={`explain-phase-${phase.name}-validity`} />
                ) : null}
              </div>
            ) : null}
            {phase.error ? (
              <FailureReason error={phase.error} testId={`explain-phase-${phase.name}-error`} />
            ) : null}
          </li>
        )
      })}
    </ol>
  )
}
