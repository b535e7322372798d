import type { ReactNode } from 'react'
import { DappPicker } from '../components/DappPicker'
import { Empty, ErrorBanner, Spinner } from '../components/Feedback'
import { PageHeader } from '../components/Layout'
import { Link } from '../components/Link'
import { usePaymastersStore } from '../stores/usePaymastersStore'

/** A page about one dApp, with the dApp picker in its header. */
export function DappScopedPage({
  title,
  subtitle,
  testId,
  children,
}: {
  title: string
  subtitle: string
  testId: string
  children: (apiKey: string) => ReactNode
}) {
  const list = usePaymastersStore((s) => s.list)
  const selected = usePaymastersStore((s) => s.selectedApiKey)
  const apiKey = list.data?.some((p) => p.apiKey === selected) ? selected : (list.data?.[0]?.apiKey ?? null)
  return (
    <div className="page" data-testid={testId}>
      <PageHeader title={title} subtitle={subtitle} actions={<DappPicker />} />
      <ErrorBanner message={list.error} />
      {!list.data && list.loading ? <Spinner label="Loading dApps…" /> : null}
      {list.data && !apiKey ? (
        <Empty testId="no-dapp">
          No dApp yet. <Link to="paymasters">Create a dApp</Link> first.
        </Empty>
      ) : null}
      {apiKey ? children(apiKey) : null}
    </div>
  )
}
