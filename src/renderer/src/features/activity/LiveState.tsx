import { useEventStreamStore } from '../../stores/useEventStreamStore'

/** Whether the feed is pushed (event stream open) or polled (the stream is down or refused). */
export function LiveState() {
  const status = useEventStreamStore((s) => s.status)
  const live = status === 'open'
  return (
    <span
      className="muted small"
      data-testid="activity-live"
      data-state={status}
      title={
        live
          ? 'Updates are pushed by the service as they happen'
          : 'The event stream is not connected: the feed is polled every 1.5 s'
      }
    >
      <span className={`dot dot-${live ? 'ok' : 'warn'}`} /> {live ? 'live' : 'polling'}
    </span>
  )
}
