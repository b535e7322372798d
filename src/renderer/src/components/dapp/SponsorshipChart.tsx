import { useEffect, useMemo } from 'react'
import type { FeedEntry } from '../../features/activity/feedEntries'
import { subscribeToActivity, useActivityStore } from '../../features/activity/useActivityStore'
import { formatEth, maxBigInt } from '../../lib/format'
import { usePaymaster } from '../../stores/usePaymastersStore'
import { NotAvailable } from '../Feedback'
import { Section } from '../Layout'

type Bucket = { start: number; sponsored: number; rejected: number; gasWei: bigint }

/** At most this many buckets; fewer while the history is short. */
const MAX_BUCKETS = 24
const STEPS = [10_000, 30_000, 60_000, 5 * 60_000, 15 * 60_000, 3600_000, 6 * 3600_000, 86_400_000]

/**
 * Groups a dApp's decisions and mined ops into time buckets from its first record to now; with no record yet,
 * from `since` (when the dApp was created). The axis never starts before there was anything to show; beyond
 * 24 days, only the last 24 days are shown.
 */
export function bucketise(
  decisions: FeedEntry[],
  ops: FeedEntry[],
  now = Date.now(),
  since = now,
): { buckets: Bucket[]; step: number } {
  let first = Math.min(since, now)
  let any = false
  for (const r of [...decisions, ...ops]) {
    if (!(r.at > 0)) continue
    first = any ? Math.min(first, r.at) : r.at
    any = true
  }
  first = Math.min(first, now)
  const span = now - first
  const step = STEPS.find((s) => s * MAX_BUCKETS >= span) ?? STEPS[STEPS.length - 1]!
  const end = (Math.floor(now / step) + 1) * step
  const start = Math.max(Math.floor(first / step) * step, end - step * MAX_BUCKETS)
  const count = Math.round((end - start) / step)
  const buckets: Bucket[] = Array.from({ length: count }, (_, i) => ({
    start: start + i * step,
    sponsored: 0,
    rejected: 0,
    gasWei: 0n,
  }))
  const slot = (at: number) =>
    at >= start && at < end ? buckets[Math.floor((at - start) / step)] : undefined
  for (const d of decisions) {
    const b = slot(d.at)
    if (!b) continue
    if (d.sponsored) b.sponsored += 1
    else if (d.sponsored === false) b.rejected += 1
  }
  for (const o of ops) {
    const b = slot(o.at)
    if (b && o.gasCostWei && /^\d+$/.test(o.gasCostWei)) b.gasWei += BigInt(o.gasCostWei)
  }
  return { buckets, step }
}

function label(ms: number, step: number): string {
  const d = new Date(ms)
  if (step >= 86_400_000) return d.toISOString().slice(5, 10)
  return d.toLocaleTimeString('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    ...(step < 60_000 ? { second: '2-digit' } : {}),
    hour12: false,
  })
}

/** Sponsored operations (bars) and gas spent (line) over time, for one dApp. */
export function SponsorshipChart({ apiKey }: { apiKey: string }) {
  const createdAt = usePaymaster(apiKey)?.createdAt
  const decisions = useActivityStore((s) => s.decisions)
  const ops = useActivityStore((s) => s.userOperations)
  useEffect(() => subscribeToActivity(), [])
  const { buckets, step } = useMemo(() => {
    const mine = [...(decisions.data?.values() ?? [])].filter((d) => d.apiKey === apiKey)
    const hashes = new Set(
      mine.filter((d) => d.sponsored && d.userOpHash).map((d) => d.userOpHash?.toLowerCase()),
    )
    const mined = [...(ops.data?.values() ?? [])].filter(
      (o) => (o.status === 'mined' || o.status === 'failed') && hashes.has(o.userOpHash?.toLowerCase()),
    )
    const created = createdAt ? Date.parse(createdAt) : Number.NaN
    return bucketise(mine, mined, Date.now(), Number.isNaN(created) ? undefined : created)
  }, [decisions.data, ops.data, apiKey, createdAt])
  if (decisions.notAvailable && ops.notAvailable) {
    return (
      <Section title="Sponsored operations and gas spent" testId="sponsorship-chart">
        <NotAvailable
          what="Sponsorship history"
          endpoint="GET /console/api/sponsorship-decisions, GET /console/api/user-operations"
        />
      </Section>
    )
  }
  const width = 720
  const height = 160
  const pad = { left: 36, right: 64, top: 10, bottom: 22 }
  const innerW = width - pad.left - pad.right
  const innerH = height - pad.top - pad.bottom
  const maxCount = Math.max(1, ...buckets.map((b) => b.sponsored + b.rejected))
  const maxGas = maxBigInt(buckets.map((b) => b.gasWei))
  const barW = innerW / buckets.length
  /** Bars stay slim while there are few buckets. */
  const bar = Math.max(1, Math.min(barW - 4, 24))
  const labelEvery = Math.ceil(buckets.length / 6)
  const y = (count: number) => pad.top + innerH - (count / maxCount) * innerH
  const gy = (wei: bigint) =>
    pad.top + innerH - (maxGas === 0n ? 0 : Number((wei * 1000n) / maxGas) / 1000) * innerH
  const totalSponsored = buckets.reduce((n, b) => n + b.sponsored, 0)
  const totalRejected = buckets.reduce((n, b) => n + b.rejected, 0)
  const totalGas = buckets.reduce((n, b) => n + b.gasWei, 0n)
  const line = buckets
    .map(
      (b, i) =>
        `${i === 0 ? 'M' : 'L'}${(pad.left + i * barW + barW / 2).toFixed(1)},${gy(b.gasWei).toFixed(1)}`,
    )
    .join(' ')
  return (
    <Section
      title="Sponsored operations and gas spent"
      testId="sponsorship-chart"
      actions={
        <span className="legend">
          <span className="legend-item">
            <span className="swatch swatch-ok" /> sponsored {totalSponsored}
          </span>
          <span className="legend-item">
            <span className="swatch swatch-bad" /> not sponsored {totalRejected}
          </span>
          <span className="legend-item">
            <span className="swatch swatch-line" /> gas {formatEth(totalGas)}
          </span>
        </span>
      }
    >
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="chart"
        data-testid="sponsorship-chart-svg"
        data-start={buckets[0]?.start}
        data-end={(buckets[buckets.length - 1]?.start ?? 0) + step}
        data-step={step}
        role="img"
        aria-label="Sponsored operations and gas spent over time"
      >
        <line
          x1={pad.left}
          x2={width - pad.right}
          y1={pad.top + innerH}
          y2={pad.top + innerH}
          className="axis"
        />
        <text x={pad.left - 6} y={pad.top + 8} className="tick" textAnchor="end">
          {maxCount}
        </text>
        <text x={pad.left - 6} y={pad.top + innerH} className="tick" textAnchor="end">
          0
        </text>
        <text x={width - pad.right + 6} y={pad.top + 8} className="tick">
          {formatEth(maxGas, 4)}
        </text>
        {buckets.map((b, i) => {
          const x = pad.left + i * barW + (barW - bar) / 2
          return (
            <g key={b.start}>
              <title>{`${label(b.start, step)}: ${b.sponsored} sponsored, ${b.rejected} not sponsored, ${formatEth(b.gasWei)}`}</title>
              <rect
                x={x}
                width={bar}
                y={y(b.sponsored)}
                height={pad.top + innerH - y(b.sponsored)}
                className="bar-ok"
              />
              <rect
                x={x}
                width={bar}
                y={y(b.sponsored + b.rejected)}
                height={y(b.sponsored) - y(b.sponsored + b.rejected)}
                className="bar-bad"
              />
              {i % labelEvery === 0 ? (
                <text x={pad.left + i * barW} y={height - 6} className="tick">
                  {label(b.start, step)}
                </text>
              ) : null}
            </g>
          )
        })}
        {maxGas > 0n ? <path d={line} className="gas-line" /> : null}
      </svg>
    </Section>
  )
}
