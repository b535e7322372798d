import type { ValidityWindow as Window } from '../../../../shared/api/explanation'
import { Badge } from '../../components/Feedback'
import { formatValidityBound, formatValidityRange, isOutsideWindow } from './explanationParts'

/** How a window's state reads: outside it stands out (expired is final, not yet valid may come). */
const STATE_TONES = { valid: 'ok', 'not yet valid': 'warn', expired: 'bad' } as const

/**
 * The window a validation's validationData gave, in its unit (block numbers for a v0.9 block range, dates for
 * timestamps; the raw figures in a tooltip), and where the time it was checked at falls: an expired or not yet
 * valid window stands out.
 */
export function ValidityWindow({ validity, testId }: { validity: Window; testId: string }) {
  const { unit, validAfter, validUntil, checkedAt, state } = validity
  const unitName = unit === 'block' ? 'blocks' : 'seconds'
  return (
    <span
      className={`validity-window${isOutsideWindow(validity) ? ' validity-window-out' : ''}`}
      data-testid={testId}
      data-unit={unit}
      data-state={state ?? 'unknown'}
    >
      <span className="muted small">valid </span>
      <span
        data-testid={`${testId}-range`}
        title={`validAfter ${validAfter}, validUntil ${validUntil ?? 'none'} (${unitName})`}
      >
        {formatValidityRange(validity)}
      </span>
      {state ? (
        <>
          {' '}
          <Badge tone={STATE_TONES[state]} testId={`${testId}-state`}>
            {state}
          </Badge>
          {checkedAt !== null ? (
            <span className="muted small" title={`${checkedAt} (${unitName})`}>
              {' '}
              at {formatValidityBound(unit, checkedAt)}
            </span>
          ) : null}
        </>
      ) : null}
    </span>
  )
}
