import { useEffect, useMemo, useState } from 'react'
import { Empty, ErrorBanner, NotAvailable, Spinner } from '../../components/Feedback'
import { PageHeader, Section } from '../../components/Layout'
import { VirtualTable } from '../../components/VirtualTable'
import { useMediaQuery } from '../../lib/useMediaQuery'
import { useRouteStore } from '../../stores/useRouteStore'
import { useServiceStore } from '../../stores/useServiceStore'
import { listChains } from '../chains/chainList'
import { ChainTimeNote } from '../time/ChainClock'
import { ActivityDetail } from './ActivityDetail'
import { type FeedKind, filterFeed, listStatuses } from './feed'
import { feedColumns, feedRowTestId } from './feedColumns'
import { LiveState } from './LiveState'
import { subscribeToActivity, useActivityStore } from './useActivityStore'
import { useFeed } from './useFeed'

/** Below this width the detail goes under the feed (styles.css, .split-feed): the feed's columns need the room. */
const FEED_STACKED = '(max-width: 1359px)'

/**
 * Activity: every UserOperation the bundler saw and every sponsorship decision, live, filtered by kind, status and
 * a search (and by chain, with several: each row then shows its chain); the selected row's detail beside the feed (or under it on a narrow window).
 */
export function ActivityPage({ selected }: { selected: string | null }) {
  const opsState = useActivityStore((s) => s.userOperations)
  const decisionsState = useActivityStore((s) => s.decisions)
  const olderCursor = useActivityStore((s) => s.olderCursor)
  const loadingOlder = useActivityStore((s) => s.loadingOlder)
  const loadOlder = useActivityStore((s) => s.loadOlder)
  const navigate = useRouteStore((s) => s.navigate)
  const { rows, decisionsByHash } = useFeed()
  const [kind, setKind] = useState<FeedKind>('all')
  const [status, setStatus] = useState('')
  const [search, setSearch] = useState('')
  const serviceStatus = useServiceStore((s) => s.status)
  const chains = listChains(serviceStatus)
  const severalChains = chains.length > 1
  /** Several chains: one chain's rows, or every chain's (null). */
  const [chainId, setChainId] = useState<number | null>(null)
  const stacked = useMediaQuery(FEED_STACKED)
  useEffect(() => subscribeToActivity(), [])

  const visible = useMemo(
    () => filterFeed(rows, { kind, status, search, chainId: severalChains ? chainId : null }),
    [rows, kind, status, search, chainId, severalChains],
  )
  const columns = useMemo(() => feedColumns(severalChains), [severalChains])
  const statuses = useMemo(() => listStatuses(rows), [rows])
  const firstLoad =
    opsState.data === undefined &&
    decisionsState.data === undefined &&
    !opsState.error &&
    !decisionsState.error

  return (
    <div className="page" data-testid="activity-page">
      <PageHeader
        title="Activity"
        subtitle="Every UserOperation the bundler saw and every sponsorship decision, live."
        actions={<LiveState />}
      />
      <ChainTimeNote />
      {opsState.notAvailable ? (
        <NotAvailable
          what="The UserOperation feed"
          endpoint="GET /console/api/user-operations"
          testId="ops-not-available"
        />
      ) : (
        <ErrorBanner message={opsState.error} title="UserOperations" />
      )}
      {decisionsState.notAvailable ? (
        <NotAvailable
          what="Sponsorship decisions"
          endpoint="GET /console/api/sponsorship-decisions"
          testId="decisions-not-available"
        />
      ) : (
        <ErrorBanner message={decisionsState.error} title="Sponsorship decisions" />
      )}
      <div className="filters">
        <div className="segmented">
          {(
            [
              ['all', 'All'],
              ['userOperation', 'UserOperations'],
              ['sponsorship', 'Sponsorship decisions'],
            ] as const
          ).map(([id, label]) => (
            <button
              key={id}
              type="button"
              className={`seg${kind === id ? ' seg-active' : ''}`}
              data-testid={`activity-filter-${id}`}
              onClick={() => setKind(id)}
            >
              {label}
            </button>
          ))}
        </div>
        {severalChains ? (
          <select
            value={chainId === null ? '' : String(chainId)}
            onChange={(e) => setChainId(e.target.value ? Number(e.target.value) : null)}
            data-testid="activity-chain"
          >
            <option value="">every chain</option>
            {chains.map((c) => (
              <option key={c.chainId} value={String(c.chainId)}>
                chain {c.chainId}
              </option>
            ))}
          </select>
        ) : null}
        <select value={status} onChange={(e) => setStatus(e.target.value)} data-testid="activity-status">
          <option value="">any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <input
          placeholder="sender, hash or dApp"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="activity-search"
        />
        <span className="muted small" data-testid="activity-count">
          {visible.length.toLocaleString('en-US')} of {rows.length.toLocaleString('en-US')}
        </span>
        {firstLoad ? <Spinner /> : null}
        {olderCursor !== null ? (
          <button
            type="button"
            className="btn btn-small"
            disabled={loadingOlder}
            onClick={() => void loadOlder()}
          >
            {loadingOlder ? 'Loading…' : 'Load older operations'}
          </button>
        ) : null}
      </div>
      <div className="split split-feed">
        <VirtualTable
          rows={visible}
          rowKey={(r) => r.key}
          selectedKey={selected}
          onRowClick={(r) => navigate(`activity/${r.key}`)}
          height={stacked ? 400 : 620}
          rowHeight={40}
          testId="activity-feed"
          rowTestId={feedRowTestId}
          empty={
            firstLoad ? (
              'Loading…'
            ) : (
              <Empty>Nothing yet. Send an operation from the Sandbox or your dApp.</Empty>
            )
          }
          columns={columns}
        />
        <Section title="Detail" testId="activity-detail">
          {selected ? (
            <ActivityDetail selected={selected} rows={rows} decisionsByHash={decisionsByHash} />
          ) : (
            <div className="muted">
              Pick a row to see its calls, timeline, receipt, gas and the policy steps behind its sponsorship.
            </div>
          )}
        </Section>
      </div>
    </div>
  )
}
