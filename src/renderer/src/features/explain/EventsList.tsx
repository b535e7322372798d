import type { ExplainedEvent } from '../../../../shared/api/explanation'
import { Hex } from '../../components/Mono'
import { keyed } from '../../lib/format'
import { formatArgument, shortenArgument } from './explanationParts'

/** `name: value` pairs of an event's named arguments, or its positional ones. */
function formatEventArgs(args: ExplainedEvent['args']): string {
  if (!args) return ''
  if (Array.isArray(args)) return args.map((arg) => shortenArgument(formatArgument(arg))).join(', ')
  return Object.entries(args)
    .map(([name, value]) => `${name}: ${shortenArgument(formatArgument(value))}`)
    .join(', ')
}

/** The events the operation emitted, in order, decoded where an ABI has them (else their topics and data). */
export function EventsList({ events }: { events: ExplainedEvent[] }) {
  if (events.length === 0)
    return (
      <div className="muted" data-testid="explain-events-none">
        No event.
      </div>
    )
  return (
    <ol className="events-list" data-testid="explain-events">
      {keyed(events).map(({ item: e, key }) => (
        <li key={key} data-testid="explain-event">
          {e.name ? (
            <code className="mono">
              <strong>{e.name}</strong>({formatEventArgs(e.args)})
            </code>
          ) : (
            <span className="muted">unknown event</span>
          )}{' '}
          <span className="muted small">from {e.contract ?? ''}</span> <Hex value={e.address} />
          {!e.name ? (
            <div
              className="mono small call-input"
              title={`topics ${(e.topics ?? []).join(', ')} data ${e.data ?? '0x'}`}
            >
              topic0 {shortenArgument(e.topics?.[0] ?? '—', 20)}, {(e.topics ?? []).length} topics, data{' '}
              {shortenArgument(e.data ?? '0x')}
            </div>
          ) : null}
        </li>
      ))}
    </ol>
  )
}
