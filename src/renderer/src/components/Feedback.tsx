import type { ReactNode } from 'react'

/** The server's message when something failed; never a blank screen. */
export function ErrorBanner({
  message,
  title,
  testId = 'error-banner',
  onRetry,
}: {
  message: string | null | undefined
  title?: string
  testId?: string
  onRetry?: () => void
}) {
  if (!message) return null
  return (
    <div className="banner banner-error" role="alert" data-testid={testId}>
      {title ? <strong>{title}: </strong> : null}
      <span data-testid={`${testId}-message`}>{message}</span>
      {onRetry ? (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Retry
        </button>
      ) : null}
    </div>
  )
}

/** A feature whose service endpoint does not exist yet: says so instead of showing invented data. */
export function NotAvailable({
  what,
  endpoint,
  testId = 'not-available',
}: {
  what: string
  endpoint?: string
  testId?: string
}) {
  return (
    <div className="banner banner-muted" data-testid={testId}>
      <strong>{what}: not available yet.</strong> This service does not provide it yet
      {endpoint ? (
        <>
          {' '}
          (<code className="mono">{endpoint}</code>)
        </>
      ) : null}
      . It appears here as soon as the service supports it.
    </div>
  )
}

export function Spinner({ label }: { label?: string }) {
  return (
    <span className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      {label ? <span className="muted">{label}</span> : null}
    </span>
  )
}

export function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={testId}>
      {children}
    </div>
  )
}

export function Badge({
  tone = 'neutral',
  children,
  testId,
}: {
  tone?: 'ok' | 'bad' | 'warn' | 'neutral' | 'info'
  children: ReactNode
  testId?: string
}) {
  return (
    <span className={`badge badge-${tone}`} data-testid={testId}>
      {children}
    </span>
  )
}

/** " inactive" after a dApp's name while it is deactivated; nothing while it is active. */
export function InactiveBadge({ active }: { active: boolean | undefined }) {
  if (active !== false) return null
  return (
    <>
      {' '}
      <Badge tone="warn" testId="paymaster-inactive">
        inactive
      </Badge>
    </>
  )
}
