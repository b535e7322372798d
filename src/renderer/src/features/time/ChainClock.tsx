import { useEffect, useState } from 'react'
import { formatDateTime } from '../../lib/format'
import { useServiceStore } from '../../stores/useServiceStore'
import { isChainTimeOffset, listChainClocks } from './chainClocks'
import { describeDuration, useTimeStore } from './useTimeStore'

/** Wall time in unix seconds, ticking once a second while shown. */
export function useWallSeconds(): number {
  const [now, setNow] = useState(() => Math.floor(Date.now() / 1000))
  useEffect(() => {
    const timer = setInterval(() => setNow(Math.floor(Date.now() / 1000)), 1000)
    return () => clearInterval(timer)
  }, [])
  return now
}

/** Chain time minus wall time as the console last heard it (the time panel's read, else the service's status). */
export function useChainTimeOffset(): number {
  const fromPanel = useTimeStore((s) => (s.time.data ? s.offsetSeconds : undefined))
  const fromStatus = useServiceStore((s) => s.status?.chainTimeOffsetSeconds ?? 0)
  return fromPanel ?? fromStatus
}

/**
 * The chain clocks in the navigation: chain time, with its distance from wall time, for each chain away from it (with
 * several chains, a line per such chain, named by its id).
 */
export function ChainClock() {
  const wall = useWallSeconds()
  const offset = useChainTimeOffset()
  const chains = useServiceStore((s) => s.status?.chains)
  const clocks = listChainClocks(chains ?? [], offset)
  if (clocks.length === 0) return null
  return (
    <div className="small" data-testid="nav-chain-clock" title={`Wall time ${formatDateTime(wall)}`}>
      {clocks.map(({ chainId, offsetSeconds }) => (
        <div
          key={chainId ?? 'chain'}
          data-testid={chainId === null ? undefined : `nav-chain-clock-${chainId}`}
        >
          <div>
            {chainId === null ? 'chain' : `chain ${chainId}`} {formatDateTime(wall + offsetSeconds)}
          </div>
          <div className="muted">
            {offsetSeconds > 0 ? '+' : ''}
            {describeDuration(offsetSeconds)} from wall time
          </div>
        </div>
      ))}
    </div>
  )
}

/**
 * Chain time beside wall time above a list of records, when the chain is away from wall time: each record shows the
 * chain time it was stamped with, and its wall time beside it (records from before chain time was kept, wall time).
 */
export function ChainTimeNote() {
  const wall = useWallSeconds()
  const offset = useChainTimeOffset()
  if (!isChainTimeOffset(offset)) return null
  return (
    <div className="banner banner-muted" data-testid="chain-time-note">
      <span>
        Chain time <span className="mono">{formatDateTime(wall + offset)}</span> ({offset > 0 ? '+' : ''}
        {describeDuration(offset)}), wall time <span className="mono">{formatDateTime(wall)}</span>: the times
        below are chain times, with wall time beside them.
      </span>
    </div>
  )
}
