import type { ReactNode } from 'react'
import { chainStateTone } from '../features/chains/chainList'
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
  const chains = useServiceStore((s) => s.status?.chains)
  const error = useServiceStore((s) => s.error)
  if (error) {
    return (
      <div className="nav-status" data-testid="nav-status">
        <span className="dot dot-bad" /> service unreachable
      </div>
    )
  }
  if (!chain) return null
  // Several chains: each chain's own state, with its own missing contracts and message.
  if (chains && chains.length > 1) {
    return (
      <div className="nav-status nav-status-chains" data-testid="nav-status">
        {chains.map((c) => (
          <div key={c.chainId} data-testid={`nav-chain-${c.chainId}`} title={c.message}>
            <span className={`dot dot-${chainStateTone(c.state, c.missing.length)}`} /> chain {c.chainId}{' '}
            {c.state}
          </div>
        ))}
      </div>
    )
  }
  const label = chain.kind === 'none' ? 'no chain' : `chain ${chain.state}`
  // No chain shows red here (the Overview shows it neutral).
  const tone = chain.state === 'none' ? 'bad' : chainStateTone(chain.state, chain.missing.length)
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
