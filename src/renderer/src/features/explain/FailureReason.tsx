import type { PhaseError } from '../../../../shared/api/explanation'
import { Hex } from '../../components/Mono'

/** Where a phase failed (the frame: contract, function, address) and why (the decoded reason, the limit to raise). */
export function FailureReason({ error, testId }: { error: PhaseError; testId: string }) {
  const frame = error.contract && error.function ? `${error.contract}.${error.function}` : error.function
  return (
    <div className="failure-reason" data-testid={testId}>
      <div>
        <span className="muted small">in </span>
        {frame || error.contract ? (
          <code className="mono" data-testid={`${testId}-frame`}>
            {frame ?? error.contract}
          </code>
        ) : (
          <span className="muted">an unknown contract</span>
        )}{' '}
        {error.address ? <Hex value={error.address} /> : null}
      </div>
      <div>
        <strong data-testid={`${testId}-reason`}>{error.reason || error.revert.text}</strong>
        {error.raise && !error.reason.includes(error.raise) ? (
          <span className="small" data-testid={`${testId}-raise`}>
            {' '}
            (raise <code className="mono">{error.raise}</code>)
          </span>
        ) : null}
      </div>
      {error.revert.kind === 'unknown' || error.revert.kind === 'empty' ? (
        <div className="muted small mono">revert data {error.revert.data}</div>
      ) : null}
    </div>
  )
}
