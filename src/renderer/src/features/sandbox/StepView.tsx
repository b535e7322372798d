import { useState } from 'react'
import { SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS, type SandboxAccount } from '../../../../shared/sandbox'
import { AaExplanation } from '../../components/AaExplanation'
import { Badge, ErrorBanner, Spinner } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { keyed } from '../../lib/format'
import type { Step } from './run'
import { SafeModeRefusal } from './SafeModeRefusal'

/** The bundler refused the account's operation for the ERC-7562 rule its type is known to break in safe mode. */
const isSafeModeRefusal = (error: string, type: SandboxAccount['type']) => {
  const rule = SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS[type]?.rule
  return rule !== undefined && error.includes(`[${rule}]`)
}

/** One step of a run: its state and result line, its error explained, its requests and responses. */
export function StepView({
  step,
  index,
  current,
  accountType,
}: {
  step: Step
  index: number
  current: boolean
  accountType: SandboxAccount['type']
}) {
  const [open, setOpen] = useState(false)
  const show = open || step.status === 'failed'
  return (
    <li className={`step step-${step.status}`} data-testid={`step-${step.id}`} data-status={step.status}>
      <div className="step-head">
        <span className="step-num">
          {step.status === 'done' ? '✓' : step.status === 'failed' ? '!' : index + 1}
        </span>
        <strong>{step.title}</strong>
        {step.status === 'running' ? <Spinner /> : null}
        {step.note ? (
          <span className="muted small" data-testid={`step-${step.id}-note`}>
            {step.note}
          </span>
        ) : null}
        {current && step.status === 'idle' ? <Badge tone="info">next</Badge> : null}
        {step.exchanges.length ? (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            style={{ marginLeft: 'auto' }}
            onClick={() => setOpen(!open)}
            data-testid={`step-${step.id}-toggle`}
          >
            {show ? 'Hide' : 'Show'} request / response
          </button>
        ) : null}
      </div>
      {step.error ? (
        <div className="step-body">
          <ErrorBanner message={step.error} testId={`step-${step.id}-error`} />
          <AaExplanation message={step.error} />
          {isSafeModeRefusal(step.error, accountType) ? (
            <SafeModeRefusal type={accountType} testId={`step-${step.id}-refusal`} />
          ) : null}
        </div>
      ) : null}
      {show
        ? keyed(step.exchanges).map(({ item: e, key }) => (
            <div key={key} className="step-body grid-2">
              <div>
                <h3>
                  Request · {e.label} <span className="muted">{e.url.replace(/^https?:\/\/[^/]+/, '')}</span>
                </h3>
                <JsonView value={e.request} maxHeight={240} />
              </div>
              <div>
                <h3>
                  Response{e.httpStatus ? ` · HTTP ${e.httpStatus}` : ''}
                  {e.ms !== undefined ? ` · ${e.ms} ms` : ''}
                </h3>
                <JsonView value={e.response} maxHeight={240} />
              </div>
            </div>
          ))
        : null}
    </li>
  )
}
