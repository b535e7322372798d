import { useEffect, useState } from 'react'
import { CopyButton } from '../components/CopyButton'
import { ErrorBanner, NotAvailable, Spinner } from '../components/Feedback'
import { PageHeader, Section } from '../components/Layout'
import { useServiceStore } from '../stores/useServiceStore'
import { useSettingsStore } from '../stores/useSettingsStore'

function Row({
  label,
  value,
  flag,
  testId,
}: {
  label: string
  value: React.ReactNode
  flag: string
  testId?: string
}) {
  return (
    <tr>
      <td className="settings-label">{label}</td>
      <td data-testid={testId}>{value}</td>
      <td>
        <code className="mono muted">{flag}</code>
      </td>
    </tr>
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
  const s = settings.data
  const bridge = window.opstation
  const chainKind = s?.chainKind ?? status?.chain.kind
  const rpc = s?.rpcUrl ?? status?.rpcUrl ?? null
  const command = [
    'opstation serve',
    chainKind === 'external' && rpc ? `--rpc-url ${rpc}` : chainKind === 'none' ? '--no-chain' : '',
    s?.bundlingMode && s.bundlingMode !== 'auto' ? `--bundling-mode ${s.bundlingMode}` : '',
    s?.unsafe ? '--unsafe' : '',
    s?.webhookTimeoutMs && s.webhookTimeoutMs !== 3000 ? `--webhook-timeout ${s.webhookTimeoutMs}` : '',
    status ? `--data-dir ${status.dataDir}` : '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <div className="page" data-testid="settings-page">
      <PageHeader
        title="Settings"
        subtitle="How this service runs. Settings are start-up options: change them and restart the service."
      />
      {settings.loading && !s ? <Spinner label="Loading settings…" /> : null}
      {settings.notAvailable ? (
        <NotAvailable
          what="Reading the bundling mode, validation mode and webhook time-out"
          endpoint="GET /console/api/settings"
        />
      ) : (
        <ErrorBanner message={settings.error} />
      )}
      <Section title="Service">
        <table className="table settings">
          <thead>
            <tr>
              <th>Setting</th>
              <th>Current value</th>
              <th>Start-up flag</th>
            </tr>
          </thead>
          <tbody>
            <Row
              label="Chain"
              testId="setting-chain"
              flag="--rpc-url <url> | --no-chain"
              value={
                chainKind === 'external' ? (
                  <>
                    external node <code className="mono">{rpc}</code>
                  </>
                ) : chainKind === 'embedded' ? (
                  <>embedded anvil {rpc ? <code className="mono">{rpc}</code> : null}</>
                ) : chainKind === 'none' ? (
                  'no chain'
                ) : (
                  '—'
                )
              }
            />
            <Row
              label="Chain id"
              flag="--chain-id <id>"
              value={<code className="mono">{status?.chainId ?? '—'}</code>}
            />
            <Row
              label="Bundling mode"
              testId="setting-bundling"
              flag="--bundling-mode auto|interval|manual"
              value={s?.bundlingMode ?? <span className="muted">unknown</span>}
            />
            <Row
              label="Validation"
              testId="setting-validation"
              flag="--unsafe"
              value={
                s?.unsafe === undefined ? (
                  <span className="muted">unknown</span>
                ) : s.unsafe ? (
                  'unsafe (ERC-7562 rules skipped)'
                ) : (
                  'safe (ERC-7562 rules enforced)'
                )
              }
            />
            <Row
              label="Webhook time-out"
              testId="setting-webhook-timeout"
              flag="--webhook-timeout <ms>"
              value={
                s?.webhookTimeoutMs !== undefined ? (
                  `${s.webhookTimeoutMs} ms`
                ) : (
                  <span className="muted">unknown</span>
                )
              }
            />
            <Row
              label="Data folder"
              testId="setting-data-dir"
              flag="--data-dir <dir>"
              value={
                <span className="hex-wrap">
                  <code className="mono">{status?.dataDir ?? '—'}</code>
                  {status ? <CopyButton value={status.dataDir} /> : null}
                  {bridge ? (
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() =>
                        void bridge.openDataFolder().catch((e: Error) => setOpenError(e.message))
                      }
                    >
                      Open
                    </button>
                  ) : null}
                </span>
              }
            />
          </tbody>
        </table>
        <ErrorBanner message={openError} />
      </Section>
      <Section title="Start the same service again">
        <div className="hex-wrap">
          <code className="mono" data-testid="settings-command">
            {command}
          </code>
          <CopyButton value={command} />
        </div>
      </Section>
    </div>
  )
}
