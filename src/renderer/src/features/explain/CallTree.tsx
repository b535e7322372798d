import { useState } from 'react'
import type { ExplainedCall } from '../../../../shared/api/explanation'
import { Badge } from '../../components/Feedback'
import { Hex } from '../../components/Mono'
import { formatEth, formatNumber, toBigInt } from '../../lib/format'
import {
  callLabel,
  countCalls,
  formatArguments,
  formatArgumentsShort,
  isFailureOrigin,
  leadsToFailure,
  shortenArgument,
} from './explanationParts'

/**
 * The traced call tree, decoded where the callee's ABI is known (contract, function, arguments), else its address
 * and raw input. Collapsible; it opens on the path to a failure, and the frame a failure started in is highlighted
 * with its reason.
 */
export function CallTree({ root }: { root: ExplainedCall | null }) {
  if (!root)
    return (
      <div className="muted" data-testid="explain-calls-none">
        No call tree: the operation was never in a transaction or simulation.
      </div>
    )
  return (
    <div data-testid="explain-calls" data-count={countCalls(root)}>
      <ul className="call-tree">
        <CallNode call={root} depth={0} />
      </ul>
    </div>
  )
}

function CallNode({ call, depth }: { call: ExplainedCall; depth: number }) {
  const [open, setOpen] = useState(depth < 2 || leadsToFailure(call))
  const origin = isFailureOrigin(call)
  const label = callLabel(call)
  const value = toBigInt(call.value)
  return (
    <li
      className={`call-node${origin ? ' call-failed' : call.error ? ' call-errored' : ''}`}
      data-testid="explain-call"
      data-origin={origin ? 'true' : undefined}
    >
      <div className="call-head">
        {call.calls.length ? (
          <button
            type="button"
            className="call-toggle"
            aria-expanded={open}
            aria-label={open ? 'Collapse' : 'Expand'}
            onClick={() => setOpen(!open)}
          >
            {open ? '▾' : '▸'}
          </button>
        ) : (
          <span className="call-toggle" />
        )}
        <span className="muted small">{call.type}</span>
        {label ? (
          <code
            className="mono call-name"
            data-testid="explain-call-name"
            title={call.function ? `${label}(${formatArguments(call.args)})` : undefined}
          >
            {label}
            {call.function ? `(${formatArgumentsShort(call.args)})` : null}
          </code>
        ) : (
          <span className="muted">unknown contract</span>
        )}
        <Hex value={call.to} />
        {value ? <span className="small">{formatEth(value)}</span> : null}
        <span className="muted small mono">gas {formatNumber(call.gasUsed)}</span>
        {call.error ? <Badge tone={origin ? 'bad' : 'warn'}>{call.error}</Badge> : null}
      </div>
      {!call.function && call.input && call.input !== '0x' ? (
        <div className="call-input mono small" title={call.input}>
          input {shortenArgument(call.input)}
        </div>
      ) : null}
      {origin && call.reason ? (
        <div className="call-reason" data-testid="explain-call-reason">
          {call.reason.text}
        </div>
      ) : null}
      {open && call.calls.length ? (
        <ul className="call-tree">
          {call.calls.map((child, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a trace's calls have no id; their order is their identity
            <CallNode key={i} call={child} depth={depth + 1} />
          ))}
        </ul>
      ) : null}
    </li>
  )
}
