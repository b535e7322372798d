import { useEffect, useMemo, useState } from 'react'
import { AaExplanation } from '../../components/AaExplanation'
import { Badge, Empty, ErrorBanner, NotAvailable, Spinner } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { Kv } from '../../components/Kv'
import { PageHeader, Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { VirtualTable } from '../../components/VirtualTable'
import { formatDateTime, formatEth, formatNumber, formatTime, keyed, shortHex } from '../../lib/format'
import { useCallNames } from '../../lib/useCallNames'
import { useEventStreamStore } from '../../stores/useEventStreamStore'
import { useRouteStore } from '../../stores/useRouteStore'
import {
  type FeedEntry,
  OP_STATUS_LABELS,
  type Raw,
  subscribeToActivity,
  useActivityStore,
} from './useActivityStore'

function statusTone(status: string): 'ok' | 'bad' | 'warn' | 'neutral' | 'info' {
  if (status === 'mined' || status === 'sponsored') return 'ok'
  if (status === 'failed' || status === 'rejected' || status === 'not sponsored' || status === 'dropped')
    return 'bad'
  if (status === 'received' || status === 'bundled') return 'info'
  return 'neutral'
}

type Filter = 'all' | 'userOperation' | 'sponsorship'

function useFeed(): { rows: FeedEntry[]; decisionsByHash: Map<string, FeedEntry[]> } {
  const ops = useActivityStore((s) => s.userOperations.data)
  const decisions = useActivityStore((s) => s.decisions.data)
  return useMemo(() => {
    const decisionsByHash = new Map<string, FeedEntry[]>()
    for (const d of decisions?.values() ?? []) {
      if (!d.userOpHash) continue
      const key = d.userOpHash.toLowerCase()
      decisionsByHash.set(key, [...(decisionsByHash.get(key) ?? []), d])
    }
    // An operation takes the dApp of the decision that sponsored it.
    const rows = [
      ...[...(ops?.values() ?? [])].map((o) => {
        const d = o.userOpHash ? decisionsByHash.get(o.userOpHash.toLowerCase())?.[0] : undefined
        return d
          ? { ...o, apiKey: o.apiKey ?? d.apiKey, dappName: o.dappName ?? d.dappName, sponsored: d.sponsored }
          : o
      }),
      ...(decisions?.values() ?? []),
    ]
    rows.sort((a, b) => b.at - a.at || a.key.localeCompare(b.key))
    return { rows, decisionsByHash }
  }, [ops, decisions])
}

function PolicySteps({ raw }: { raw: Raw }) {
  const steps = (raw.steps as { step: string; outcome: string; detail: string }[] | undefined) ?? []
  if (!steps.length) return <div className="muted">No policy steps recorded.</div>
  return (
    <table className="table compact policy-steps" data-testid="policy-steps">
      <tbody>
        {keyed(steps).map(({ item: s, key }) => (
          <tr key={key} data-testid={`policy-step-${s.step}`} data-outcome={s.outcome}>
            <td className="policy-step-mark">
              {s.outcome === 'pass' ? '✓' : s.outcome === 'fail' ? '✗' : '–'}
            </td>
            <td className="policy-step-name">
              <strong data-testid="policy-step-name">{s.step}</strong>
            </td>
            <td className="policy-step-outcome">
              <Badge tone={s.outcome === 'pass' ? 'ok' : s.outcome === 'fail' ? 'bad' : 'neutral'}>
                {s.outcome}
              </Badge>
            </td>
            <td className="policy-step-detail">{s.detail}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The operation's gas limits, then the paymaster's two (v0.7/v0.8 with a paymaster) when present. */
const GAS_LIMIT_FIELDS = [
  'preVerificationGas',
  'verificationGasLimit',
  'callGasLimit',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
] as const

function GasLimits({ gas, testId }: { gas: Record<string, unknown>; testId: string }) {
  const known: readonly string[] = GAS_LIMIT_FIELDS
  const fields = [
    ...GAS_LIMIT_FIELDS.filter((k) => gas[k] !== undefined && gas[k] !== null),
    ...Object.keys(gas).filter((k) => !known.includes(k)),
  ]
  return (
    <div className="kv-grid" data-testid={testId}>
      {fields.map((k) => (
        <Kv key={k} label={k}>
          <span className="mono" data-testid={`${testId}-${k}`}>
            {formatNumber(gas[k])}
          </span>
        </Kv>
      ))}
    </div>
  )
}

function DecisionDetail({ entry, raw }: { entry: FeedEntry; raw: Raw }) {
  const gas = raw.gas as Record<string, string> | null | undefined
  return (
    <div className="stack" data-testid="decision-detail">
      <div className="kv-grid">
        <Kv label="Decision">
          <Badge tone={statusTone(entry.status)} testId="decision-verdict">
            {entry.status}
          </Badge>
        </Kv>
        <Kv label="dApp">
          <span>{entry.dappName ?? '—'}</span>
        </Kv>
        <Kv label="Mode">
          <span>{String(raw.mode ?? '—')}</span>
        </Kv>
        <Kv label="Method">
          <code className="mono">{String(raw.method ?? '—')}</code>
        </Kv>
        <Kv label="Time">
          <span>{formatDateTime(entry.at)}</span>
        </Kv>
      </div>
      <div className="kv-grid">
        <Kv label="Sender">
          <Hex value={entry.sender} copy />
        </Kv>
        <Kv label="Nonce">
          <span className="mono">{String(raw.nonce ?? '—')}</span>
        </Kv>
        <Kv label="EntryPoint">
          <span data-testid="decision-entry-point">
            {typeof raw.entryPointVersion === 'string' ? (
              <Badge tone="info">v{raw.entryPointVersion}</Badge>
            ) : (
              '—'
            )}
          </span>
        </Kv>
        {entry.userOpHash ? (
          <Kv label="UserOperation">
            <Link to={`activity/op:${entry.userOpHash}`}>
              <code className="mono">{shortHex(entry.userOpHash, 10, 6)}</code>
            </Link>
          </Kv>
        ) : null}
      </div>
      {entry.reason ? (
        <div className="banner banner-warn" data-testid="decision-reason">
          <strong>Why not sponsored:</strong> {entry.reason}
        </div>
      ) : null}
      <h3>Policy steps</h3>
      <PolicySteps raw={raw} />
      {gas ? (
        <>
          <h3>Gas limits returned</h3>
          <GasLimits gas={gas} testId="decision-gas" />
        </>
      ) : null}
      {raw.webhookCallId ? (
        <div className="muted small">
          Webhook call <code className="mono">{String(raw.webhookCallId)}</code> (see the dApp's webhook log)
        </div>
      ) : null}
      <details className="details">
        <summary>Raw record</summary>
        <JsonView value={raw} />
      </details>
    </div>
  )
}

function OperationDetail({ entry, raw, decisions }: { entry: FeedEntry; raw: Raw; decisions: FeedEntry[] }) {
  const names = useCallNames()
  const calls =
    (raw.calls as { to: string; value: string; selector: string | null }[] | null | undefined) ?? null
  const timeline = (raw.timeline as { status: string; at: string; note?: string }[] | undefined) ?? []
  const gas = raw.gas as Record<string, string> | undefined
  const failure = raw.failure as
    | { code: number; aaCode: string | null; reason: string; rules?: string[] }
    | null
    | undefined
  const used = raw.actualGasUsed as string | null | undefined
  const limit = raw.gasLimitTotal as string | undefined
  const percent = raw.gasUsedPercent as number | null | undefined
  const revert = raw.revertReason as string | null | undefined
  const problem = failure?.reason ?? revert ?? null
  return (
    <div className="stack" data-testid="operation-detail">
      <div className="kv-grid">
        <Kv label="Status">
          <Badge tone={statusTone(entry.status)} testId="operation-status">
            {entry.status}
          </Badge>
        </Kv>
        <Kv label="Sponsorship">
          <span data-testid="operation-sponsorship">
            {decisions.length === 0 ? (
              <span className="muted">
                {raw.paymaster ? 'paymaster (no decision recorded here)' : 'self-paid'}
              </span>
            ) : (
              <Badge tone={decisions[0]?.sponsored ? 'ok' : 'bad'}>
                {decisions[0]?.sponsored ? 'sponsored' : 'not sponsored'}
              </Badge>
            )}
          </span>
        </Kv>
        <Kv label="dApp">
          <span>{entry.dappName ?? '—'}</span>
        </Kv>
        <Kv label="Updated">
          <span>{formatDateTime(entry.at)}</span>
        </Kv>
      </div>
      <div className="kv-grid">
        <Kv label="userOpHash">
          <Hex value={entry.userOpHash} copy testId="operation-hash" />
        </Kv>
        <Kv label="Sender">
          <Hex value={entry.sender} copy />
        </Kv>
        <Kv label="Account">
          <span data-testid="operation-account">{typeof raw.account === 'string' ? raw.account : '—'}</span>
        </Kv>
        <Kv label="Nonce">
          <span className="mono">{String(raw.nonce ?? '—')}</span>
        </Kv>
        <Kv label="EntryPoint">
          <span data-testid="operation-entry-point">
            {typeof raw.entryPointVersion === 'string' ? `v${raw.entryPointVersion} ` : ''}
            <Hex value={raw.entryPoint as string | null} />
          </span>
        </Kv>
        {raw.eip7702Delegate ? (
          <Kv label="EIP-7702 delegate">
            <Hex value={raw.eip7702Delegate as string} />
          </Kv>
        ) : null}
        <Kv label="Paymaster">
          <Hex value={raw.paymaster as string | null} />
        </Kv>
        {raw.factory ? (
          <Kv label="Factory (deploys)">
            <Hex value={raw.factory as string} />
          </Kv>
        ) : null}
      </div>
      {problem ? (
        <>
          <ErrorBanner
            title={failure ? `Rejected (code ${failure.code})` : 'Call reverted'}
            message={problem}
            testId="operation-failure"
          />
          <AaExplanation message={failure?.aaCode ?? problem} />
          {failure?.rules?.length ? (
            <div className="muted small">Rules: {failure.rules.join(', ')}</div>
          ) : null}
        </>
      ) : null}
      <h3>Calls</h3>
      {calls === null ? (
        <div className="muted">The account's callData could not be decoded.</div>
      ) : calls.length === 0 ? (
        <div className="muted">No call (deploy only).</div>
      ) : (
        <table className="table compact" data-testid="operation-calls">
          <thead>
            <tr>
              <th>To</th>
              <th>Method</th>
              <th>Value</th>
            </tr>
          </thead>
          <tbody>
            {keyed(calls).map(({ item: c, key }) => {
              const name = names(c.to, c.selector)
              return (
                <tr key={key}>
                  <td>
                    {name ? <strong>{name.contract} </strong> : null}
                    <Hex value={c.to} />
                  </td>
                  <td>
                    {name ? (
                      <>
                        <code className="mono">{name.signature}</code>{' '}
                        {name.whitelisted ? (
                          <Badge tone="ok">whitelisted</Badge>
                        ) : (
                          <Badge tone="warn">not whitelisted</Badge>
                        )}
                      </>
                    ) : (
                      <code className="mono">{c.selector ?? '(transfer)'}</code>
                    )}
                  </td>
                  <td>{formatEth(c.value)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <h3>Timeline</h3>
      <ul className="timeline" data-testid="operation-timeline">
        {keyed(timeline).map(({ item: t, key }) => (
          <li
            key={key}
            className={
              t.status === 'included'
                ? 'ok'
                : ['failed', 'rejected', 'dropped'].includes(t.status)
                  ? 'bad'
                  : ''
            }
          >
            <strong>{OP_STATUS_LABELS[t.status] ?? t.status}</strong>{' '}
            <span className="muted">{formatTime(t.at)}</span>
            {t.note ? <div className="small muted">{t.note}</div> : null}
          </li>
        ))}
      </ul>
      <h3>Gas: estimated versus used</h3>
      <div className="kv-grid" data-testid="operation-gas">
        {gas
          ? GAS_LIMIT_FIELDS.filter(
              (k) => gas[k] !== undefined && gas[k] !== null && (raw.paymaster || !k.startsWith('paymaster')),
            ).map((k) => (
              <Kv key={k} label={k}>
                <span className="mono" data-testid={`operation-gas-${k}`}>
                  {formatNumber(gas[k])}
                </span>
              </Kv>
            ))
          : null}
        <Kv label="limit total">
          <span className="mono">{formatNumber(limit)}</span>
        </Kv>
        <Kv label="actual gas used">
          <span className="mono">{used ? formatNumber(used) : '—'}</span>
        </Kv>
        <Kv label="used of limit">
          <span className="mono">{percent === null || percent === undefined ? '—' : `${percent}%`}</span>
        </Kv>
        <Kv label="actual cost">
          <span className="mono">{raw.actualGasCost ? formatEth(raw.actualGasCost, 8) : '—'}</span>
        </Kv>
      </div>
      {percent !== null && percent !== undefined ? (
        <div className="gauge" title={`${percent}% of the gas limit used`}>
          <div className="gauge-fill" style={{ width: `${Math.min(100, percent)}%` }} />
        </div>
      ) : null}
      <h3>Receipt</h3>
      {raw.transactionHash ? (
        <div className="kv-grid" data-testid="operation-receipt">
          <Kv label="Transaction">
            <Hex value={raw.transactionHash as string} copy />
          </Kv>
          <Kv label="Block">
            <span className="mono">{String(raw.blockNumber ?? '—')}</span>
          </Kv>
          <Kv label="Block hash">
            <Hex value={raw.blockHash as string | null} />
          </Kv>
        </div>
      ) : (
        <div className="muted">
          {entry.status === 'received'
            ? 'In the mempool: no bundle yet.'
            : entry.status === 'bundled'
              ? 'In a bundle that is not mined yet.'
              : 'No receipt.'}
        </div>
      )}
      {decisions.length ? (
        <>
          <h3>Sponsorship decision</h3>
          {decisions.map((d) => (
            <div key={d.key} className="card">
              <div className="card-head">
                <span>
                  <Badge tone={statusTone(d.status)}>{d.status}</Badge>{' '}
                  <span className="muted small">{formatTime(d.at)}</span>
                </span>
                <Link to={`activity/${d.key}`}>Open</Link>
              </div>
              {d.reason ? <div className="small">{d.reason}</div> : null}
              <PolicySteps raw={d.raw} />
            </div>
          ))}
        </>
      ) : null}
      <details className="details">
        <summary>Raw record</summary>
        <JsonView value={raw} />
      </details>
    </div>
  )
}

function Detail({
  selected,
  rows,
  decisionsByHash,
}: {
  selected: string
  rows: FeedEntry[]
  decisionsByHash: Map<string, FeedEntry[]>
}) {
  const entry = rows.find((r) => r.key === selected)
  const detail = useActivityStore((s) => s.details[selected])
  const loadDetail = useActivityStore((s) => s.loadDetail)
  const updatedAt = entry?.at
  // Reload when the feed shows a newer state of the record.
  // biome-ignore lint/correctness/useExhaustiveDependencies: updatedAt is the trigger, not an input
  useEffect(() => {
    void loadDetail(selected)
  }, [selected, updatedAt, loadDetail])
  const raw = detail?.data ?? entry?.raw
  if (!entry && !raw) {
    if (detail?.error) return <ErrorBanner message={detail.error} />
    return <Spinner label="Loading…" />
  }
  const base = entry
  if (!raw) return <Spinner label="Loading…" />
  const kind = selected.startsWith('op:') ? 'userOperation' : 'sponsorship'
  const view: FeedEntry =
    base ??
    ({
      key: selected,
      kind,
      id: selected.slice(selected.indexOf(':') + 1),
      at: 0,
      status: String(raw.status ?? ''),
      sender: (raw.sender as string) ?? null,
      userOpHash: (raw.userOpHash as string) ?? null,
      apiKey: (raw.apiKey as string) ?? null,
      dappName: (raw.dappName as string) ?? null,
      sponsored: typeof raw.sponsored === 'boolean' ? raw.sponsored : null,
      reason: (raw.reason as string) ?? null,
      mode: null,
      gasCostWei: null,
      seq: null,
      raw,
    } satisfies FeedEntry)
  return kind === 'userOperation' ? (
    <OperationDetail
      entry={view}
      raw={raw}
      decisions={view.userOpHash ? (decisionsByHash.get(view.userOpHash.toLowerCase()) ?? []) : []}
    />
  ) : (
    <DecisionDetail entry={view} raw={raw} />
  )
}

/** Below this width the detail goes under the feed (styles.css, .split-feed): the feed's columns need the room. */
const FEED_STACKED = '(max-width: 1359px)'

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches)
  useEffect(() => {
    const list = window.matchMedia(query)
    const update = () => setMatches(list.matches)
    update()
    list.addEventListener('change', update)
    return () => list.removeEventListener('change', update)
  }, [query])
  return matches
}

/** Whether the feed is pushed (event stream open) or polled (the stream is down or refused). */
function LiveState() {
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

export function ActivityPage({ selected }: { selected: string | null }) {
  const opsState = useActivityStore((s) => s.userOperations)
  const decisionsState = useActivityStore((s) => s.decisions)
  const olderCursor = useActivityStore((s) => s.olderCursor)
  const loadingOlder = useActivityStore((s) => s.loadingOlder)
  const loadOlder = useActivityStore((s) => s.loadOlder)
  const navigate = useRouteStore((s) => s.navigate)
  const { rows, decisionsByHash } = useFeed()
  const [filter, setFilter] = useState<Filter>('all')
  const [status, setStatus] = useState('')
  const [search, setSearch] = useState('')
  const stacked = useMediaQuery(FEED_STACKED)
  useEffect(() => subscribeToActivity(), [])

  const visible = useMemo(() => {
    const q = search.trim().toLowerCase()
    return rows.filter(
      (r) =>
        (filter === 'all' || r.kind === filter) &&
        (!status || r.status === status) &&
        (!q ||
          r.sender?.toLowerCase().includes(q) ||
          r.userOpHash?.toLowerCase().includes(q) ||
          r.dappName?.toLowerCase().includes(q)),
    )
  }, [rows, filter, status, search])
  const statuses = useMemo(() => [...new Set(rows.map((r) => r.status))].sort(), [rows])
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
              className={`seg${filter === id ? ' seg-active' : ''}`}
              data-testid={`activity-filter-${id}`}
              onClick={() => setFilter(id)}
            >
              {label}
            </button>
          ))}
        </div>
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
          rowTestId={(r) =>
            `feed-${r.kind === 'userOperation' ? 'op' : 'decision'}-${r.status.replace(/ /g, '-')}`
          }
          empty={
            firstLoad ? (
              'Loading…'
            ) : (
              <Empty>Nothing yet. Send an operation from the Sandbox or your dApp.</Empty>
            )
          }
          columns={[
            {
              id: 'time',
              header: 'Time',
              width: '78px',
              render: (r) => {
                const [time, date] = formatTime(r.at).split(' ')
                return (
                  <div className="cell-lines" title={formatDateTime(r.at)}>
                    <span>{time}</span>
                    {date ? <span className="muted small">{date.slice(5)}</span> : null}
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
                  {typeof r.raw.entryPointVersion === 'string' ? (
                    <span className="muted small" data-testid="entry-point-version">
                      v{r.raw.entryPointVersion}
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
                  {typeof r.raw?.account === 'string' ? (
                    <span className="muted small" data-testid="feed-account">
                      {r.raw.account}
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
          ]}
        />
        <Section title="Detail" testId="activity-detail">
          {selected ? (
            <Detail selected={selected} rows={rows} decisionsByHash={decisionsByHash} />
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
