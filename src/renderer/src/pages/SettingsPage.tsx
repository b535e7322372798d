import { type ReactNode, useEffect, useState } from 'react'
import type { Settings, SettingsPatch, SettingsView } from '../../../shared/api/settings'
import { formatChainList } from '../../../shared/chainList'
import { errorMessage } from '../api/http'
import { CopyButton } from '../components/CopyButton'
import { ErrorBanner, NotAvailable, Spinner } from '../components/Feedback'
import { PageHeader, Section } from '../components/Layout'
import { SetupTransfer } from '../components/SetupTransfer'
import { useServiceStore } from '../stores/useServiceStore'
import { useSettingsStore } from '../stores/useSettingsStore'

function Row({
  label,
  children,
  flag,
  hint,
}: {
  label: string
  children: ReactNode
  flag: string
  hint?: ReactNode
}) {
  return (
    <tr>
      <td className="settings-label">{label}</td>
      <td>
        {children}
        {hint ? <div className="hint">{hint}</div> : null}
      </td>
      <td>
        <code className="mono muted">{flag}</code>
      </td>
    </tr>
  )
}

type ChainKind = 'embedded' | 'external' | 'several'

/** Which of the Chain setting's three choices the saved settings make. */
function savedChainKind(saved: Settings): ChainKind {
  if (saved.chains) return 'several'
  return saved.rpcUrl ? 'external' : 'embedded'
}

function SettingsForm({ view }: { view: SettingsView }) {
  const save = useSettingsStore((s) => s.save)
  const [chainKind, setChainKind] = useState<ChainKind>(savedChainKind(view.saved))
  const [rpcUrl, setRpcUrl] = useState(view.saved.rpcUrl ?? '')
  const [chains, setChains] = useState(view.saved.chains ? formatChainList(view.saved.chains) : '')
  const [bundlingMode, setBundlingMode] = useState(view.saved.bundlingMode)
  const [unsafe, setUnsafe] = useState(view.saved.unsafe)
  const [timeout, setTimeoutMs] = useState(String(view.saved.webhookTimeoutMs))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  async function submit() {
    setBusy(true)
    setError(null)
    setSaved(false)
    const patch: SettingsPatch = {
      rpcUrl: chainKind === 'external' ? rpcUrl.trim() : chainKind === 'several' ? view.saved.rpcUrl : null,
      chains: chainKind === 'several' ? chains.trim() : null,
      bundlingMode,
      unsafe,
      webhookTimeoutMs: Number(timeout),
    }
    try {
      await save(patch)
      setSaved(true)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  const effective = view.effective
  return (
    <>
      <table className="table settings" data-testid="settings-form">
        <thead>
          <tr>
            <th>Setting</th>
            <th>Value</th>
            <th>Start-up flag (overrides)</th>
          </tr>
        </thead>
        <tbody>
          <Row
            label="Chain"
            flag="--rpc-url <url> · --chains <list>"
            hint={
              <>
                Now:{' '}
                {effective.chains ? (
                  <code className="mono">{formatChainList(effective.chains)}</code>
                ) : effective.rpcUrl ? (
                  <code className="mono">{effective.rpcUrl}</code>
                ) : (
                  'embedded anvil'
                )}
                . A different chain takes effect when the service restarts. Several chains: chain ids
                separated by commas, each an embedded anvil, <code className="mono">id=fork:url</code> or{' '}
                <code className="mono">id=rpc:url</code>.
              </>
            }
          >
            <div className="form-row">
              <label className="check">
                <input
                  type="radio"
                  name="chain"
                  data-testid="setting-chain-embedded"
                  checked={chainKind === 'embedded'}
                  onChange={() => setChainKind('embedded')}
                />
                embedded anvil
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="chain"
                  data-testid="setting-chain-external"
                  checked={chainKind === 'external'}
                  onChange={() => setChainKind('external')}
                />
                external node
              </label>
              <label className="check">
                <input
                  type="radio"
                  name="chain"
                  data-testid="setting-chain-several"
                  checked={chainKind === 'several'}
                  onChange={() => setChainKind('several')}
                />
                several chains
              </label>
              {chainKind === 'several' ? (
                <input
                  className="mono field-wide"
                  data-testid="setting-chains"
                  value={chains}
                  onChange={(e) => setChains(e.target.value)}
                  placeholder="31337,31338"
                />
              ) : null}
              {chainKind === 'external' ? (
                <input
                  className="mono field-wide"
                  data-testid="setting-rpc-url"
                  value={rpcUrl}
                  onChange={(e) => setRpcUrl(e.target.value)}
                  placeholder="http://127.0.0.1:8545"
                />
              ) : null}
            </div>
          </Row>
          <Row
            label="Bundling mode"
            flag="--bundling-mode"
            hint={`Now: ${effective.bundlingMode}. auto = a bundle per operation; interval = one bundle a second of what is waiting; manual = only when asked.`}
          >
            <select
              data-testid="setting-bundling-mode"
              value={bundlingMode}
              onChange={(e) => setBundlingMode(e.target.value as Settings['bundlingMode'])}
            >
              <option value="auto">auto</option>
              <option value="interval">interval</option>
              <option value="manual">manual</option>
            </select>
          </Row>
          <Row
            label="Validation"
            flag="--unsafe"
            hint={`Now: ${effective.unsafe ? 'unsafe' : 'safe'}. Safe enforces the ERC-7562 rules (banned opcodes, storage access) like a public bundler.`}
          >
            <select
              data-testid="setting-validation"
              value={unsafe ? 'unsafe' : 'safe'}
              onChange={(e) => setUnsafe(e.target.value === 'unsafe')}
            >
              <option value="safe">safe (ERC-7562 rules enforced)</option>
              <option value="unsafe">unsafe (rules skipped)</option>
            </select>
          </Row>
          <Row
            label="Webhook time-out"
            flag="--webhook-timeout <ms>"
            hint={`Now: ${effective.webhookTimeoutMs} ms. A webhook slower than this counts as "not verified".`}
          >
            <input
              className="narrow"
              type="number"
              min={100}
              max={600000}
              data-testid="setting-webhook-timeout"
              value={timeout}
              onChange={(e) => setTimeoutMs(e.target.value)}
            />{' '}
            ms
          </Row>
        </tbody>
      </table>
      <div className="inline-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          data-testid="settings-save"
          onClick={() => void submit()}
        >
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        {saved ? (
          <span className="ok-text" data-testid="settings-saved">
            Saved.
          </span>
        ) : null}
      </div>
      {view.restartRequired ? (
        <div className="banner banner-warn" data-testid="settings-restart">
          The saved chain or chains differ from those running: restart the service to switch.
        </div>
      ) : null}
      <ErrorBanner message={error} testId="settings-error" />
    </>
  )
}

export function SettingsPage() {
  const status = useServiceStore((s) => s.status)
  const settings = useSettingsStore((s) => s.settings)
  const load = useSettingsStore((s) => s.load)
  const [openError, setOpenError] = useState<string | null>(null)
  useEffect(() => {
    void load()
  }, [load])
  const bridge = window.opstation
  const dataDir = settings.data?.dataDir ?? status?.dataDir ?? ''
  return (
    <div className="page" data-testid="settings-page">
      <PageHeader
        title="Settings"
        subtitle="How this service runs. Command-line flags, when given, win over what is saved here."
      />
      <Section title="Service">
        {settings.loading && !settings.data ? <Spinner label="Loading settings…" /> : null}
        {settings.notAvailable ? (
          <NotAvailable
            what="Changing settings from the console"
            endpoint="GET|PATCH /console/api/settings"
          />
        ) : (
          <ErrorBanner message={settings.error} onRetry={() => void load()} />
        )}
        {settings.data ? <SettingsForm view={settings.data} /> : null}
      </Section>
      <Section title="Setup file">
        <p className="hint">
          dApps with their apiKeys, contracts, webhooks, policies and gas tanks, token prices and funded
          accounts, as one file: export it here, and apply it at start (
          <code className="mono">opstation serve --setup setup.json</code>) or import it. Applied by name:
          importing a file twice changes nothing, and what it does not name is left alone.
        </p>
        <SetupTransfer />
      </Section>
      <Section title="Data folder">
        <p className="hint">
          The store (dApps, contracts, webhooks, logs), the chain state and the keys. Files are private to
          your user.
        </p>
        <div className="hex-wrap" data-testid="setting-data-dir">
          <code className="mono">{dataDir || '—'}</code>
          {dataDir ? <CopyButton value={dataDir} /> : null}
          {bridge ? (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => void bridge.openDataFolder().catch((e: Error) => setOpenError(e.message))}
            >
              Open folder
            </button>
          ) : null}
        </div>
        <ErrorBanner message={openError} />
      </Section>
    </div>
  )
}
