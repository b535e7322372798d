import { Badge } from '../../components/Feedback'
import type { Column } from '../../components/VirtualTable'
import { formatDateTime, formatTime, shortHex } from '../../lib/format'
import { type FeedEntry, shownChainTime, statusTone } from './feedEntries'

/** The activity feed's columns: time, kind and EntryPoint, status, dApp, sender and account, hash or reason. */
export const FEED_COLUMNS: Column<FeedEntry>[] = [
  {
    id: 'time',
    header: 'Time',
    width: '78px',
    render: (r) => {
      // Chain time first once the chain's clock was moved (what validity windows and limits were judged by), wall
      // time beside it.
      const chainAt = shownChainTime(r)
      const [time, date] = formatTime(chainAt ?? r.at).split(' ')
      const title =
        chainAt === null
          ? formatDateTime(r.at)
          : `chain time ${formatDateTime(chainAt)}; wall time ${formatDateTime(r.at)}`
      return (
        <div className="cell-lines" title={title} data-testid={chainAt === null ? undefined : 'chain-time'}>
          <span>{time}</span>
          {date ? <span className="muted small">{date.slice(5)}</span> : null}
          {chainAt === null ? null : (
            <span className="muted small">wall {formatTime(r.at).split(' ')[0]}</span>
          )}
        </div>
      )
    },
  },
  {
    id: 'kind',
    header: 'Kind',
    width: '78px',
    render: (r) => (
      <div className="cell-lines">
        <span>{r.kind === 'userOperation' ? 'UserOp' : 'Decision'}</span>
        {r.record.entryPointVersion ? (
          <span className="muted small" data-testid="entry-point-version">
            v{r.record.entryPointVersion}
          </span>
        ) : null}
      </div>
    ),
  },
  {
    id: 'status',
    header: 'Status',
    width: '112px',
    render: (r) => <Badge tone={statusTone(r.status)}>{r.status}</Badge>,
  },
  {
    id: 'dapp',
    header: 'dApp',
    width: 'minmax(64px, 0.7fr)',
    render: (r) =>
      r.dappName ? <span title={r.dappName}>{r.dappName}</span> : <span className="muted">—</span>,
  },
  {
    id: 'sender',
    header: 'Sender and account',
    width: 'minmax(192px, 1.3fr)',
    render: (r) => (
      <div className="cell-lines">
        <code className="mono" title={r.sender ?? undefined}>
          {shortHex(r.sender, 6, 4)}
        </code>
        {r.kind === 'userOperation' && typeof r.record.account === 'string' ? (
          <span className="muted small" data-testid="feed-account">
            {r.record.account}
          </span>
        ) : null}
      </div>
    ),
  },
  {
    id: 'info',
    header: 'Hash / reason',
    width: 'minmax(156px, 1fr)',
    render: (r) =>
      r.reason && r.status !== 'mined' ? (
        <span title={r.reason}>{r.reason}</span>
      ) : (
        <code className="mono" title={r.userOpHash ?? undefined}>
          {shortHex(r.userOpHash, 10, 6)}
        </code>
      ),
  },
]

/** Where the feed mixes chains: the chain of each operation and decision. */
const CHAIN_COLUMN: Column<FeedEntry> = {
  id: 'chain',
  header: 'Chain',
  width: '64px',
  render: (r) => (
    <span className="mono" data-testid="feed-chain">
      {r.chainId}
    </span>
  ),
}

/** The feed's columns; with several chains, the chain after the kind. */
export function feedColumns(severalChains: boolean): Column<FeedEntry>[] {
  if (!severalChains) return FEED_COLUMNS
  const kind = FEED_COLUMNS.findIndex((c) => c.id === 'kind')
  return [...FEED_COLUMNS.slice(0, kind + 1), CHAIN_COLUMN, ...FEED_COLUMNS.slice(kind + 1)]
}

/** The row's test id: `feed-op-<status>` or `feed-decision-<status>`, spaces as dashes. */
export function feedRowTestId(r: FeedEntry): string {
  return `feed-${r.kind === 'userOperation' ? 'op' : 'decision'}-${r.status.replace(/ /g, '-')}`
}
