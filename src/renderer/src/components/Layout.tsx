import type { ReactNode } from 'react'
import { ChainClock } from '../features/time/ChainClock'
import { useRouteStore } from '../stores/useRouteStore'
import { useServiceStore } from '../stores/useServiceStore'
import { Link } from './Link'
import { StoreSetAsideBanner } from './StoreSetAsideBanner'

const NAV = [
  { id: 'overview', label: 'Overview', to: '' },
  { id: 'paymasters', label: 'Paymasters', to: 'paymasters' },
  { id: 'contracts', label: 'Smart contracts', to: 'contracts' },
  { id: 'webhooks', label: 'Webhooks', to: 'webhooks' },
  { id: 'activity', label: 'Activity', to: 'activity' },
  { id: 'sandbox', label: 'Sandbox', to: 'sandbox' },
  { id: 'time', label: 'Time and snapshots', to: 'time' },
  { id: 'settings', label: 'Settings', to: 'settings' },
]

function ChainState() {
  const chain = useServiceStore((s) => s.status?.chain)
  const error = useServiceStore((s) => s.error)
  if (error) {
    return (
      <div className="nav-status" data-testid="nav-status">
        <span className="dot dot-bad" /> service unreachable
      </div>
    )
  }
  if (!chain) return null
  const tone =
    chain.state === 'ready'
      ? chain.missing.length
        ? 'warn'
        : 'ok'
      : ['starting', 'restarting', 'recovering', 'stalled'].includes(chain.state)
        ? 'warn'
        : 'bad'
  const label = chain.kind === 'none' ? 'no chain' : `chain ${chain.state}`
  return (
    <div className="nav-status" data-testid="nav-status" title={chain.message}>
      <span className={`dot dot-${tone}`} /> {label}
    </div>
  )
}

export function Layout({ children }: { children: ReactNode }) {
  const first = useRouteStore((s) => s.segments[0] ?? '')
  const active = first === '' ? 'overview' : first
  const version = useServiceStore((s) => s.status?.version)
  return (
    <div className="app">
      <aside className="nav">
        <div className="brand">
          <span className="brand-mark">◆</span> Opstation
        </div>
        <nav>
          {NAV.map((item) => (
            <Link
              key={item.id}
              to={item.to}
              className={`nav-item${active === item.id ? ' nav-item-active' : ''}`}
              testId={`nav-${item.id}`}
            >
              {item.label}
            </Link>
          ))}
        </nav>
        <div className="nav-foot">
          <ChainState />
          <ChainClock />
          {version ? <div className="muted small">v{version}</div> : null}
        </div>
      </aside>
      <main className="main">
        <StoreSetAsideBanner />
        {children}
      </main>
    </div>
  )
}

export function PageHeader({
  title,
  subtitle,
  actions,
}: {
  title: ReactNode
  subtitle?: ReactNode
  actions?: ReactNode
}) {
  return (
    <header className="page-header">
      <div>
        <h1 data-testid="page-title">{title}</h1>
        {subtitle ? <div className="page-subtitle">{subtitle}</div> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </header>
  )
}

export function Section({
  title,
  actions,
  children,
  testId,
}: {
  title: ReactNode
  actions?: ReactNode
  children: ReactNode
  testId?: string
}) {
  return (
    <section className="section" data-testid={testId}>
      <div className="section-head">
        <h2>{title}</h2>
        {actions ? <div className="section-actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  )
}
