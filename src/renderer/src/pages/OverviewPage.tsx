import { useState } from 'react'
import { CopyButton } from '../components/CopyButton'
import { Badge, Empty, ErrorBanner, Spinner } from '../components/Feedback'
import { GettingStarted } from '../components/GettingStarted'
import { Kv } from '../components/Kv'
import { PageHeader, Section } from '../components/Layout'
import { Link } from '../components/Link'
import { CopyField, Hex } from '../components/Mono'
import {
  chainStateTone,
  chainUrlsOf,
  listChains,
  paymasterUrlOf,
  runsSeveralChains,
} from '../features/chains/chainList'
import { biconomySnippet, curlSnippet, viemSnippet } from '../lib/snippets'
import { usePaymastersStore } from '../stores/usePaymastersStore'
import { useServiceStore } from '../stores/useServiceStore'

function ChainPanel() {
  const status = useServiceStore((s) => s.status)
  if (!status) return null
  const { chain } = status
  const busy = chain.state === 'starting' || chain.state === 'restarting' || chain.state === 'recovering'
  const addresses = chain.addresses
    ? Object.entries(chain.addresses).filter(([, v]) => typeof v === 'string')
    : []
  return (
    <Section
      title={runsSeveralChains(status) ? `Chain ${status.chainId} (the first)` : 'Chain'}
      testId="chain-panel"
    >
      <div className="kv-grid">
        <Kv label="State">
          <span>
            <Badge tone={chainStateTone(chain.state, chain.missing.length)} testId="chain-state">
              {chain.state}
            </Badge>{' '}
            {busy ? (
              <Spinner
                label={
                  chain.state === 'starting'
                    ? 'starting the chain and deploying contracts…'
                    : chain.state === 'recovering'
                      ? 'redeploying contracts…'
                      : 'restarting…'
                }
              />
            ) : null}
          </span>
        </Kv>
        <Kv label="Kind">
          <span data-testid="chain-kind">
            {chain.kind === 'none' ? 'no chain (dashboard API only)' : chain.kind}
          </span>
        </Kv>
        {chain.fork ? (
          <Kv label="Fork of">
            <span className="mono" data-testid="chain-fork">
              {chain.fork.url} at block {chain.fork.block}
            </span>
          </Kv>
        ) : null}
        <Kv label="Chain id">
          <span className="mono" data-testid="chain-id">
            {status.chainId}
          </span>
        </Kv>
      </div>
      {chain.message ? (
        <div
          className={`banner ${chain.state === 'ready' || chain.state === 'none' ? 'banner-muted' : 'banner-warn'}`}
          data-testid="chain-message"
        >
          {chain.message}
          {chain.state !== 'ready' && chain.state !== 'none' && chain.state !== 'stalled' ? (
            <>
              {' '}
              Bundler and paymaster calls answer 503 until the chain is ready again; dApps created meanwhile
              get their gas tanks then (pending).
            </>
          ) : null}
        </div>
      ) : null}
      {chain.missing.length ? (
        <div className="banner banner-warn" data-testid="chain-missing">
          Contracts missing on this node: {chain.missing.join(', ')}. UserOperations that need them will fail.
        </div>
      ) : null}
      {addresses.length ? (
        <details className="details">
          <summary>Contract addresses ({addresses.length})</summary>
          <table className="table compact">
            <tbody>
              {addresses.map(([name, value]) => (
                <tr key={name}>
                  <td className="nowrap">{name}</td>
                  <td>
                    <Hex value={value as string} short={false} copy />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </Section>
  )
}

/** Several chains: each chain's state and its URLs (with one chain, the Endpoints and the Chain panel say it all). */
function ChainsPanel() {
  const status = useServiceStore((s) => s.status)
  if (!runsSeveralChains(status)) return null
  return (
    <Section title="Chains" testId="chains-panel">
      <table className="table">
        <thead>
          <tr>
            <th className="nowrap">Chain</th>
            <th className="nowrap">State</th>
            <th>URLs</th>
          </tr>
        </thead>
        <tbody>
          {listChains(status).map((c) => (
            <tr key={c.chainId} data-testid={`chain-row-${c.chainId}`}>
              <td className="nowrap">
                <span className="mono">{c.chainId}</span>
                <div className="muted small">{c.kind}</div>
              </td>
              <td className="nowrap">
                <Badge tone={chainStateTone(c.state)} testId={`chain-state-${c.chainId}`}>
                  {c.state}
                </Badge>
              </td>
              <td>
                <CopyField label="Bundler URL" value={c.bundlerUrl} testId={`chain-bundler-${c.chainId}`} />
                <CopyField
                  label="Paymaster URL template"
                  value={c.paymasterUrlTemplate}
                  testId={`chain-paymaster-${c.chainId}`}
                />
                <CopyField label="Chain RPC" value={c.rpcUrl} testId={`chain-rpc-${c.chainId}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  )
}

function AuthTokenPanel() {
  const authToken = useServiceStore((s) => s.authToken)
  const regenerating = useServiceStore((s) => s.regenerating)
  const regenerateError = useServiceStore((s) => s.regenerateError)
  const regenerate = useServiceStore((s) => s.regenerateAuthToken)
  const [revealed, setRevealed] = useState(false)
  const [confirming, setConfirming] = useState(false)
  return (
    <Section title="Auth token" testId="auth-token-panel">
      <p className="hint">
        The <code>authToken</code> header of every dashboard REST call (paymasters, smart contracts,
        webhooks). Keep it secret: anyone with it can change your dApps' policies.
      </p>
      <div className="copy-field-value">
        <code className="mono" data-testid="auth-token">
          {revealed ? authToken : '•'.repeat(32)}
        </code>
        <button
          type="button"
          className="btn btn-small"
          data-testid="auth-token-reveal"
          onClick={() => setRevealed(!revealed)}
        >
          {revealed ? 'Hide' : 'Reveal'}
        </button>
        {authToken ? <CopyButton value={authToken} testId="auth-token-copy" /> : null}
        {confirming ? (
          <>
            <button
              type="button"
              className="btn btn-small btn-danger"
              data-testid="auth-token-regenerate-confirm"
              onClick={() => {
                setConfirming(false)
                void regenerate()
              }}
            >
              Regenerate: the old token stops working
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn btn-small"
            disabled={regenerating}
            data-testid="auth-token-regenerate"
            onClick={() => setConfirming(true)}
          >
            {regenerating ? 'Regenerating…' : 'Regenerate'}
          </button>
        )}
      </div>
      <ErrorBanner message={regenerateError} testId="auth-token-error" />
    </Section>
  )
}

function Snippets() {
  const status = useServiceStore((s) => s.status)
  const paymasters = usePaymastersStore((s) => s.list.data)
  const selected = usePaymastersStore((s) => s.selectedApiKey)
  const [tab, setTab] = useState<'biconomy' | 'viem' | 'curl'>('biconomy')
  if (!status) return null
  const apiKey = selected ?? paymasters?.[0]?.apiKey ?? '<apiKey>'
  const dapp = paymasters?.find((p) => p.apiKey === apiKey)
  // The URLs of the dApp's chain.
  const chainId = dapp?.chainId ?? status.chainId
  const urls = chainUrlsOf(status, chainId)
  const input = {
    bundlerUrl: urls.bundlerUrl,
    paymasterUrl: paymasterUrlOf(status, { apiKey, chainId }),
    rpcUrl: urls.rpcUrl ?? 'http://127.0.0.1:8545',
    chainId,
  }
  const code =
    tab === 'biconomy' ? biconomySnippet(input) : tab === 'viem' ? viemSnippet(input) : curlSnippet(input)
  return (
    <Section
      title="Use it from a dApp"
      testId="snippets"
      actions={
        <div className="segmented">
          {(['biconomy', 'viem', 'curl'] as const).map((id) => (
            <button
              key={id}
              type="button"
              className={`seg${tab === id ? ' seg-active' : ''}`}
              data-testid={`snippet-tab-${id}`}
              onClick={() => setTab(id)}
            >
              {id === 'biconomy' ? 'Biconomy SDK' : id === 'viem' ? 'viem · EntryPoint v0.7' : id}
            </button>
          ))}
        </div>
      }
    >
      <p className="hint">
        {dapp ? (
          <>
            Filled in for the dApp <strong>{dapp.name}</strong>
            {runsSeveralChains(status) ? ` on chain ${dapp.chainId}` : ''}.
          </>
        ) : (
          <>
            Create a dApp on the <Link to="paymasters">Paymasters</Link> page to get its paymaster URL.
          </>
        )}
      </p>
      <div className="json-view">
        <div className="json-view-copy">
          <CopyButton value={code} testId="snippet-copy" />
        </div>
        <pre className="mono code" data-testid="snippet-code">
          {code}
        </pre>
      </div>
    </Section>
  )
}

export function OverviewPage() {
  const status = useServiceStore((s) => s.status)
  const error = useServiceStore((s) => s.error)
  const paymasters = usePaymastersStore((s) => s.list)
  if (!status) {
    return (
      <div className="page">
        <PageHeader title="Overview" />
        <ErrorBanner message={error} />
      </div>
    )
  }
  return (
    <div className="page" data-testid="overview-page">
      <PageHeader title="Overview" subtitle={`Opstation ${status.version} · data folder ${status.dataDir}`} />
      <ErrorBanner message={error} title="Status" />
      <GettingStarted />
      <div className="grid-2">
        <Section title="Endpoints" testId="endpoints">
          {runsSeveralChains(status) ? (
            <p className="hint">
              The URLs of the first chain, {status.chainId}; every chain's are under Chains below.
            </p>
          ) : null}
          <CopyField
            label="Bundler URL"
            value={status.bundlerUrl}
            testId="url-bundler"
            hint="bundlerUrl for the SDK; eth_* and biconomy_* JSON-RPC"
          />
          <CopyField
            label="Paymaster URL template"
            value={status.paymasterUrlTemplate}
            testId="url-paymaster-template"
            hint="{apiKey} is the dApp's apiKey; each dApp's own URL is listed below"
          />
          <CopyField
            label="Chain RPC"
            value={status.rpcUrl ?? ''}
            testId="url-rpc"
            hint={status.rpcUrl ? undefined : 'no chain is running'}
          />
          <CopyField
            label="Dashboard API"
            value={`${status.dashboardUrl}/api/v2/public/sdk`}
            testId="url-dashboard"
          />
          <CopyField label="Console" value={status.consoleUrl} testId="url-console" />
        </Section>
        <div>
          <ChainPanel />
          <AuthTokenPanel />
        </div>
      </div>
      <ChainsPanel />
      <Section title="Paymaster URL of each dApp" testId="dapp-urls">
        {paymasters.error ? <ErrorBanner message={paymasters.error} /> : null}
        {paymasters.data?.length ? (
          <table className="table">
            <thead>
              <tr>
                <th>dApp</th>
                <th className="nowrap">Chain</th>
                <th>Paymaster URL</th>
              </tr>
            </thead>
            <tbody>
              {paymasters.data.map((p) => (
                <tr key={p.apiKey}>
                  <td>
                    <Link to={`paymasters/${encodeURIComponent(p.apiKey)}`}>{p.name}</Link>
                  </td>
                  <td className="nowrap">{p.chainId}</td>
                  <td>
                    <span className="hex-wrap">
                      <code className="mono">{paymasterUrlOf(status, p)}</code>
                      <CopyButton value={paymasterUrlOf(status, p)} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>
            No dApp yet. <Link to="paymasters">Create one</Link> to get a paymaster URL.
          </Empty>
        )}
      </Section>
      <Snippets />
    </div>
  )
}
