import { Link } from './Link'

export type Tab = { id: string; label: string; to: string; count?: number }

export function Tabs({ tabs, active }: { tabs: Tab[]; active: string }) {
  return (
    <nav className="tabs">
      {tabs.map((tab) => (
        <Link
          key={tab.id}
          to={tab.to}
          className={`tab${tab.id === active ? ' tab-active' : ''}`}
          testId={`tab-${tab.id}`}
        >
          {tab.label}
          {tab.count !== undefined ? <span className="tab-count">{tab.count}</span> : null}
        </Link>
      ))}
    </nav>
  )
}
