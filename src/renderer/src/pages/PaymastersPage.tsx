import { type FormEvent, useEffect, useState } from 'react'
import { errorMessage } from '../api/http'
import { ActionButton } from '../components/ActionButton'
import { CopyButton } from '../components/CopyButton'
import { Empty, ErrorBanner, InactiveBadge, Spinner } from '../components/Feedback'
import { PageHeader, Section } from '../components/Layout'
import { Link } from '../components/Link'
import { listChains, paymasterUrlOf, runsSeveralChains } from '../features/chains/chainList'
import { formatDateTime, formatEth } from '../lib/format'
import { useGasTankStore } from '../stores/useGasTankStore'
import { usePaymastersStore } from '../stores/usePaymastersStore'
import { useRouteStore } from '../stores/useRouteStore'
import { useServiceStore } from '../stores/useServiceStore'

const VERSIONS = ['1.1.0', '1.0.0']

function CreatePaymasterForm() {
  const status = useServiceStore((s) => s.status)
  const create = usePaymastersStore((s) => s.create)
  const navigate = useRouteStore((s) => s.navigate)
  const [name, setName] = useState('')
  const chains = listChains(status)
  const [chainId, setChainId] = useState(String(status?.chainId ?? 31337))
  const [version, setVersion] = useState(VERSIONS[0] ?? '1.1.0')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const apiKey = await create({ name: name.trim(), chainId: Number(chainId), version })
      setName('')
      navigate(`paymasters/${encodeURIComponent(apiKey)}`)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section title="New dApp" testId="create-paymaster">
      <form className="form-row" onSubmit={submit}>
        <label className="field">
          <span>Name</span>
          <input
            data-testid="paymaster-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="my-dapp"
            required
            maxLength={100}
          />
        </label>
        {chains.length > 1 ? (
          // Several chains: the dApp is made on one of them (its gas tanks and paymaster URL are that chain's).
          <label className="field">
            <span>Chain</span>
            <select
              data-testid="paymaster-chain"
              value={chainId}
              onChange={(e) => setChainId(e.target.value)}
            >
              {chains.map((c) => (
                <option key={c.chainId} value={String(c.chainId)}>
                  {c.chainId}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <label className="field">
            <span>Chain</span>
            <input
              data-testid="paymaster-chain"
              className="narrow mono"
              type="number"
              min={1}
              value={chainId}
              onChange={(e) => setChainId(e.target.value)}
              title={`This service serves chain ${status?.chainId ?? 31337}`}
            />
          </label>
        )}
        <label className="field">
          <span>Paymaster version</span>
          <select
            data-testid="paymaster-version"
            value={version}
            onChange={(e) => setVersion(e.target.value)}
          >
            {VERSIONS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <ActionButton
          label="Create dApp"
          busyLabel="Creating…"
          busy={busy}
          disabled={!name.trim()}
          testId="paymaster-create"
        />
      </form>
      <ErrorBanner message={error} testId="create-paymaster-error" />
    </Section>
  )
}

function GasTankCell({ apiKey }: { apiKey: string }) {
  const tank = useGasTankStore((s) => s.byApiKey[apiKey])
  const load = useGasTankStore((s) => s.load)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])
  if (!tank || (tank.loading && !tank.data)) return <span className="muted">…</span>
  if (tank.notAvailable) return <span className="muted">n/a</span>
  if (tank.error && !tank.data)
    return (
      <span className="muted" title={tank.error}>
        unavailable
      </span>
    )
  return (
    <span data-testid="paymaster-gas-tank">
      {tank.data?.balanceWei == null ? 'pending' : formatEth(tank.data.balanceWei, 4)}
    </span>
  )
}

export function PaymastersPage() {
  const list = usePaymastersStore((s) => s.list)
  const load = usePaymastersStore((s) => s.load)
  const status = useServiceStore((s) => s.status)
  return (
    <div className="page" data-testid="paymasters-page">
      <PageHeader
        title="Paymasters"
        subtitle={
          runsSeveralChains(status)
            ? 'Each dApp gets an apiKey, its own paymaster URL and a gas tank on its chain.'
            : 'Each dApp gets an apiKey, its own paymaster URL and a gas tank on the local chain.'
        }
        actions={
          <button type="button" className="btn" onClick={() => void load()}>
            Refresh
          </button>
        }
      />
      <CreatePaymasterForm />
      <Section title="dApps" actions={list.loading ? <Spinner /> : null}>
        <ErrorBanner message={list.error} onRetry={() => void load()} />
        {list.data && list.data.length === 0 ? (
          <Empty testId="paymasters-empty">No dApp yet: create the first one above.</Empty>
        ) : null}
        {list.data && list.data.length > 0 ? (
          <table className="table" data-testid="paymasters-table">
            <thead>
              <tr>
                <th>Name</th>
                <th className="nowrap">Chain</th>
                <th className="nowrap">Version</th>
                <th>apiKey and paymaster URL</th>
                <th className="nowrap">Gas tank</th>
                <th className="nowrap">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((p) => {
                const url = paymasterUrlOf(status, p)
                return (
                  <tr key={p.apiKey} data-testid={`paymaster-row-${p.name}`}>
                    <td>
                      <Link
                        to={`paymasters/${encodeURIComponent(p.apiKey)}`}
                        testId={`paymaster-link-${p.name}`}
                      >
                        {p.name}
                      </Link>
                      <InactiveBadge active={p.active} />
                    </td>
                    <td className="nowrap" data-testid="paymaster-chain-id">
                      {p.chainId}
                    </td>
                    <td className="nowrap">{p.version ?? '—'}</td>
                    <td>
                      <div className="key-and-url">
                        <span className="hex-wrap">
                          <code className="mono" data-testid="paymaster-apikey">
                            {p.apiKey}
                          </code>
                          <CopyButton value={p.apiKey} testId="paymaster-apikey-copy" />
                        </span>
                        <span className="hex-wrap">
                          <code className="mono" data-testid="paymaster-url">
                            {url}
                          </code>
                          <CopyButton value={url} label="Copy URL" testId="paymaster-url-copy" />
                        </span>
                      </div>
                    </td>
                    <td className="nowrap">
                      <GasTankCell apiKey={p.apiKey} />
                    </td>
                    <td className="nowrap muted">{formatDateTime(p.createdAt)}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        ) : null}
      </Section>
    </div>
  )
}
