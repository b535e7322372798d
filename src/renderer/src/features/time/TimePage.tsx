import { type FormEvent, useEffect, useState } from 'react'
import { errorMessage } from '../../api/http'
import { ActionButton } from '../../components/ActionButton'
import { ConfirmButton } from '../../components/ConfirmButton'
import { Empty, ErrorBanner, NotAvailable, Spinner } from '../../components/Feedback'
import { PageHeader, Section } from '../../components/Layout'
import { formatDateTime } from '../../lib/format'
import { useServiceStore } from '../../stores/useServiceStore'
import { listChains, runsSeveralChains } from '../chains/chainList'
import { useWallSeconds } from './ChainClock'
import { isChainTimeOffset } from './chainClocks'
import { describeDuration, subscribeToChainTime, useTimeStore } from './useTimeStore'

const DURATION_UNITS = [
  { label: 'minutes', seconds: 60 },
  { label: 'hours', seconds: 3_600 },
  { label: 'days', seconds: 86_400 },
] as const

/** Runs one panel action at a time and keeps its outcome (a message, or the service's error). */
function useAction() {
  const [busy, setBusy] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const run = async (name: string, action: () => Promise<string>) => {
    setBusy(name)
    setError(null)
    setMessage(null)
    try {
      setMessage(await action())
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(null)
    }
  }
  return { busy, message, error, run }
}

function Clocks({
  chainTime,
  blockNumber,
  chainId,
}: {
  chainTime: number
  blockNumber: number
  chainId: number | undefined
}) {
  const wall = useWallSeconds()
  // The first chain's as the console's clock hears it; another chain's as the panel last read it.
  const offset = useTimeStore((s) =>
    s.chainId === undefined ? s.offsetSeconds : (s.time.data?.offsetSeconds ?? 0),
  )
  return (
    <div className="kv-grid" data-testid="time-clocks" data-chain-id={chainId}>
      <div>
        <div className="muted small">Chain time</div>
        <div className="mono" data-testid="chain-time" data-unix={wall + offset}>
          {formatDateTime(wall + offset)}
        </div>
        <div className="muted small" data-testid="chain-offset">
          {isChainTimeOffset(offset)
            ? `${offset > 0 ? '+' : ''}${describeDuration(offset)} from wall time`
            : 'with wall time'}
        </div>
      </div>
      <div>
        <div className="muted small">Wall time</div>
        <div className="mono" data-testid="wall-time" data-unix={wall}>
          {formatDateTime(wall)}
        </div>
      </div>
      <div>
        <div className="muted small">Block</div>
        <div
          className="mono"
          data-testid="block-number"
          title={`chain time read at ${formatDateTime(chainTime)}`}
        >
          {blockNumber}
        </div>
      </div>
    </div>
  )
}

export function TimePage() {
  const time = useTimeStore((s) => s.time)
  const store = useTimeStore()
  const { busy, message, error, run } = useAction()
  const [amount, setAmount] = useState('1')
  const [unit, setUnit] = useState<number>(86_400)
  const [blocks, setBlocks] = useState('1')
  const [name, setName] = useState('')
  useEffect(() => subscribeToChainTime(), [])
  // Several chains: the panel acts on the chain picked (the first, the console's clock, is asked without a chain id).
  const status = useServiceStore((s) => s.status)
  const chains = listChains(status)
  const firstChainId = chains[0]?.chainId
  const pickedChainId = useTimeStore((s) => s.chainId) ?? firstChainId

  const advance = (e: FormEvent) => {
    e.preventDefault()
    void run('advance', () => store.advance(Math.round(Number(amount) * unit)))
  }
  const mine = (e: FormEvent) => {
    e.preventDefault()
    void run('mine', () => store.mine(Number(blocks)))
  }
  const snapshot = (e: FormEvent) => {
    e.preventDefault()
    void run('snapshot', async () => {
      const said = await store.snapshot(name.trim())
      setName('')
      return said
    })
  }

  return (
    <div className="page">
      <PageHeader
        title="Time and snapshots"
        subtitle="The chain's time, and snapshots of the whole stack: the chain, the mempool, the records, the policies"
        actions={
          runsSeveralChains(status) ? (
            <label className="inline-field">
              <span>Chain</span>
              <select
                data-testid="time-chain"
                value={String(pickedChainId)}
                onChange={(e) => {
                  const chainId = Number(e.target.value)
                  void store.pickChain(chainId === firstChainId ? undefined : chainId)
                }}
              >
                {chains.map((c) => (
                  <option key={c.chainId} value={String(c.chainId)}>
                    {c.chainId}
                  </option>
                ))}
              </select>
            </label>
          ) : null
        }
      />
      {time.notAvailable ? <NotAvailable what="Time and snapshots" endpoint="/console/api/time" /> : null}
      <ErrorBanner message={time.notAvailable ? null : time.error} onRetry={() => void store.load()} />
      {message ? (
        <div className="banner banner-ok" data-testid="time-message">
          {message}
        </div>
      ) : null}
      <ErrorBanner message={error} testId="time-error" />
      {!time.data ? (
        time.loading ? (
          <Spinner label="Reading the chain's time" />
        ) : null
      ) : (
        <>
          <Section title="Clock" testId="time-clock">
            <Clocks
              chainTime={time.data.chainTime}
              blockNumber={time.data.blockNumber}
              chainId={pickedChainId}
            />
            <form className="form-row" onSubmit={advance}>
              <label className="field">
                <span>Advance by</span>
                <input
                  data-testid="advance-amount"
                  className="narrow"
                  type="number"
                  min={1}
                  step="any"
                  required
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                />
              </label>
              <label className="field">
                <span>Unit</span>
                <select
                  data-testid="advance-unit"
                  value={unit}
                  onChange={(e) => setUnit(Number(e.target.value))}
                >
                  {DURATION_UNITS.map((u) => (
                    <option key={u.label} value={u.seconds}>
                      {u.label}
                    </option>
                  ))}
                </select>
              </label>
              <ActionButton
                label="Advance"
                busyLabel="Advancing…"
                busy={busy === 'advance'}
                disabled={busy !== null}
                testId="advance-time"
              />
            </form>
            <form className="form-row" onSubmit={mine}>
              <label className="field">
                <span>Blocks</span>
                <input
                  data-testid="mine-blocks-count"
                  className="narrow"
                  type="number"
                  min={1}
                  max={10000}
                  required
                  value={blocks}
                  onChange={(e) => setBlocks(e.target.value)}
                />
              </label>
              <ActionButton
                label="Mine"
                busyLabel="Mining…"
                busy={busy === 'mine'}
                disabled={busy !== null}
                testId="mine-blocks"
                primary={false}
              />
            </form>
          </Section>
          <Section
            title="Snapshots"
            testId="time-snapshots"
            actions={
              <ConfirmButton
                label="Reset"
                confirmLabel="Really reset the whole stack to its first start?"
                disabled={busy !== null}
                testId="reset-stack"
                onConfirm={() => void run('reset', () => store.reset())}
              />
            }
          >
            <form className="form-row" onSubmit={snapshot}>
              <label className="field">
                <span>Name</span>
                <input
                  data-testid="snapshot-name"
                  value={name}
                  required
                  maxLength={60}
                  placeholder="before demo"
                  onChange={(e) => setName(e.target.value)}
                />
              </label>
              <ActionButton
                label="Take snapshot"
                busyLabel="Taking…"
                busy={busy === 'snapshot'}
                disabled={busy !== null || name.trim() === ''}
                testId="take-snapshot"
              />
            </form>
            {time.data.snapshots.length === 0 ? (
              <Empty testId="snapshots-empty">
                No snapshots yet. A revert takes the chain and everything the service keeps back to one, and
                uses it up (with every later one).
              </Empty>
            ) : (
              <table className="table compact" data-testid="snapshot-list">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Chain time</th>
                    <th>Taken (wall time)</th>
                    <th>Id</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {[...time.data.snapshots].reverse().map((s) => (
                    <tr key={s.id} data-testid="snapshot-row">
                      <td data-testid="snapshot-row-name">{s.name}</td>
                      <td className="mono">{formatDateTime(s.chainTime)}</td>
                      <td className="mono">{formatDateTime(s.takenAt)}</td>
                      <td className="mono muted">{s.id}</td>
                      <td>
                        <ConfirmButton
                          label="Revert"
                          confirmLabel={`Really revert to '${s.name}'?`}
                          disabled={busy !== null}
                          testId={`revert-${s.id}`}
                          onConfirm={() => void run('revert', () => store.revert(s.id))}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Section>
        </>
      )}
    </div>
  )
}
