import { useEffect, useMemo, useState } from 'react'
import {
  SANDBOX_ACCOUNT_LABELS,
  SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS,
  type SandboxAccount,
} from '../../../../shared/sandbox'
import { AaExplanation } from '../../components/AaExplanation'
import { DappPicker } from '../../components/DappPicker'
import { Badge, Empty, ErrorBanner, NotAvailable, Spinner } from '../../components/Feedback'
import { JsonView } from '../../components/JsonView'
import { Kv } from '../../components/Kv'
import { PageHeader, Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { formatEth, formatUnits, keyed } from '../../lib/format'
import { usePaymastersStore } from '../../stores/usePaymastersStore'
import { paymasterUrlFor, useServiceStore } from '../../stores/useServiceStore'
import { CallBuilder, type CallDraft } from './CallBuilder'
import { CreateAccountButtons } from './CreateAccountButtons'
import { SafeModeRefusal } from './SafeModeRefusal'
import { type SandboxMode, type Step, useSandboxStore } from './useSandboxStore'

type TokenInfo = { symbol: string; address: string; decimals: number }

type ChainAddresses = {
  tokens?: TokenInfo[]
  tokenPaymaster?: string
  tokenPaymasterV07?: string
  tokenPaymasterV08?: string
}

/** The chain's test tokens, and its token paymaster for each EntryPoint version. */
function useChainTokens(): {
  tokens: TokenInfo[]
  tokenPaymasterFor: (version: SandboxAccount['entryPointVersion']) => string | null
} {
  const addresses = useServiceStore((s) => s.status?.chain.addresses) as ChainAddresses | null | undefined
  return useMemo(
    () => ({
      tokens: addresses?.tokens ?? [],
      tokenPaymasterFor: (version) =>
        (version === '0.7'
          ? addresses?.tokenPaymasterV07
          : version === '0.8'
            ? addresses?.tokenPaymasterV08
            : addresses?.tokenPaymaster) ?? null,
    }),
    [addresses],
  )
}

function AccountPanel() {
  const accounts = useSandboxStore((s) => s.accounts)
  const selected = useSandboxStore((s) => s.selectedAddress)
  const select = useSandboxStore((s) => s.selectAccount)
  const create = useSandboxStore((s) => s.createAccount)
  const creating = useSandboxStore((s) => s.creating)
  const faucet = useSandboxStore((s) => s.faucet)
  const faucetBusy = useSandboxStore((s) => s.faucetBusy)
  const faucetMessage = useSandboxStore((s) => s.faucetMessage)
  const load = useSandboxStore((s) => s.loadAccounts)
  const { tokens } = useChainTokens()
  const [createError, setCreateError] = useState<string | null>(null)
  const account = accounts.data?.find((a) => a.address === selected)

  async function createAccount(type: SandboxAccount['type']) {
    setCreateError(null)
    try {
      await create(type)
    } catch (err) {
      setCreateError((err as Error).message)
    }
  }

  return (
    <Section title="Smart account" testId="sandbox-account" actions={accounts.loading ? <Spinner /> : null}>
      <CreateAccountButtons disabled={creating} onCreate={(type) => void createAccount(type)} />
      <p className="hint">
        The owner keys stay in the service's data folder; the console only asks the service to sign.
      </p>
      {accounts.notAvailable ? (
        <NotAvailable what="Sandbox accounts" endpoint="/console/api/sandbox/accounts" />
      ) : (
        <ErrorBanner message={accounts.error} onRetry={() => void load()} />
      )}
      <ErrorBanner message={createError} testId="sandbox-create-error" />
      {accounts.data && accounts.data.length === 0 ? (
        <Empty testId="sandbox-no-account">No sandbox account yet: create one above.</Empty>
      ) : null}
      {accounts.data && accounts.data.length > 0 ? (
        <>
          <label className="inline-field">
            <span>Account</span>
            <select
              data-testid="sandbox-account-picker"
              value={selected ?? ''}
              onChange={(e) => select(e.target.value)}
            >
              {accounts.data.map((a) => (
                <option key={a.address} value={a.address}>
                  {a.label} · {a.address.slice(0, 10)}… ({SANDBOX_ACCOUNT_LABELS[a.type]})
                </option>
              ))}
            </select>
          </label>
          {account ? (
            <div className="kv-grid" style={{ marginTop: 8 }}>
              <Kv label="Address">
                <Hex value={account.address} copy testId="sandbox-account-address" />
              </Kv>
              <Kv label="Type">
                <span>{SANDBOX_ACCOUNT_LABELS[account.type]}</span>
              </Kv>
              <Kv label="EntryPoint">
                <span className="badge" data-testid="sandbox-account-entry-point">
                  v{account.entryPointVersion}
                </span>
              </Kv>
              <Kv label="Owner">
                <Hex value={account.owner} />
              </Kv>
              <Kv label="Deployed">
                <span data-testid="sandbox-account-deployed">
                  {account.deployed === null
                    ? '—'
                    : account.deployed
                      ? 'yes'
                      : account.type === 'SIMPLE_7702_V08'
                        ? 'not yet delegated (the first op carries the EIP-7702 authorization)'
                        : 'not yet (first op deploys it)'}
                </span>
              </Kv>
              <Kv label="ETH">
                <span data-testid="sandbox-balance-eth">{formatEth(account.balanceWei)}</span>
              </Kv>
              {account.tokens.map((t) => (
                <Kv key={t.address} label={t.symbol}>
                  <span data-testid={`sandbox-balance-${t.symbol}`}>
                    {formatUnits(t.balance, t.decimals, 4)}
                  </span>
                </Kv>
              ))}
            </div>
          ) : null}
          {account ? <SafeModeRefusal type={account.type} /> : null}
          {account ? (
            <div className="inline-actions" style={{ marginTop: 6 }}>
              <span className="muted small">Faucet:</span>
              <button
                type="button"
                className="btn btn-small"
                disabled={!!faucetBusy}
                data-testid="faucet-eth"
                onClick={() => void faucet('ETH', '1', 'ETH')}
              >
                {faucetBusy === 'ETH' ? 'Sending…' : '+1 ETH'}
              </button>
              {tokens.map((t) => (
                <button
                  key={t.address}
                  type="button"
                  className="btn btn-small"
                  disabled={!!faucetBusy}
                  data-testid={`faucet-${t.symbol}`}
                  onClick={() => void faucet(t.address, '100', t.symbol)}
                >
                  {faucetBusy === t.address ? 'Minting…' : `+100 ${t.symbol}`}
                </button>
              ))}
              {faucetMessage ? (
                <span className={faucetMessage.ok ? 'ok-text' : 'field-error'} data-testid="faucet-message">
                  {faucetMessage.text}
                </span>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </Section>
  )
}

/** The bundler refused the account's operation for the ERC-7562 rule its type is known to break in safe mode. */
const isSafeModeRefusal = (error: string, type: SandboxAccount['type']) => {
  const rule = SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS[type]?.rule
  return rule !== undefined && error.includes(`[${rule}]`)
}

function StepView({
  step,
  index,
  current,
  accountType,
}: {
  step: Step
  index: number
  current: boolean
  accountType: SandboxAccount['type']
}) {
  const [open, setOpen] = useState(false)
  const show = open || step.status === 'failed'
  return (
    <li className={`step step-${step.status}`} data-testid={`step-${step.id}`} data-status={step.status}>
      <div className="step-head">
        <span className="step-num">
          {step.status === 'done' ? '✓' : step.status === 'failed' ? '!' : index + 1}
        </span>
        <strong>{step.title}</strong>
        {step.status === 'running' ? <Spinner /> : null}
        {step.note ? (
          <span className="muted small" data-testid={`step-${step.id}-note`}>
            {step.note}
          </span>
        ) : null}
        {current && step.status === 'idle' ? <Badge tone="info">next</Badge> : null}
        {step.exchanges.length ? (
          <button
            type="button"
            className="btn btn-small btn-ghost"
            style={{ marginLeft: 'auto' }}
            onClick={() => setOpen(!open)}
            data-testid={`step-${step.id}-toggle`}
          >
            {show ? 'Hide' : 'Show'} request / response
          </button>
        ) : null}
      </div>
      {step.error ? (
        <div className="step-body">
          <ErrorBanner message={step.error} testId={`step-${step.id}-error`} />
          <AaExplanation message={step.error} />
          {isSafeModeRefusal(step.error, accountType) ? (
            <SafeModeRefusal type={accountType} testId={`step-${step.id}-refusal`} />
          ) : null}
        </div>
      ) : null}
      {show
        ? keyed(step.exchanges).map(({ item: e, key }) => (
            <div key={key} className="step-body grid-2">
              <div>
                <h3>
                  Request · {e.label} <span className="muted">{e.url.replace(/^https?:\/\/[^/]+/, '')}</span>
                </h3>
                <JsonView value={e.request} maxHeight={240} />
              </div>
              <div>
                <h3>
                  Response{e.httpStatus ? ` · HTTP ${e.httpStatus}` : ''}
                  {e.ms !== undefined ? ` · ${e.ms} ms` : ''}
                </h3>
                <JsonView value={e.response} maxHeight={240} />
              </div>
            </div>
          ))
        : null}
    </li>
  )
}

function RunPanel() {
  const run = useSandboxStore((s) => s.run)
  const busy = useSandboxStore((s) => s.busy)
  const runNext = useSandboxStore((s) => s.runNext)
  const runAll = useSandboxStore((s) => s.runAll)
  const reset = useSandboxStore((s) => s.reset)
  const bundleNow = useSandboxStore((s) => s.bundleNow)
  if (!run) return null
  const next = run.steps.find((s) => s.status !== 'done')
  const done = !next
  return (
    <Section
      title={`Run: ${run.config.mode === 'SELF' ? 'self-paid' : run.config.mode === 'ERC20' ? 'ERC20 (user pays in tokens)' : 'sponsored'}`}
      testId="sandbox-run"
      actions={
        <span className="inline-actions">
          <button
            type="button"
            className="btn btn-small"
            disabled={busy || done}
            data-testid="run-next"
            onClick={() => void runNext()}
          >
            {next?.status === 'failed' ? 'Retry step' : 'Next step'}
          </button>
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={busy || done}
            data-testid="run-all"
            onClick={() => void runAll()}
          >
            Run all
          </button>
          <button type="button" className="btn btn-small btn-ghost" disabled={busy} onClick={reset}>
            Reset
          </button>
        </span>
      }
    >
      <ol className="steps">
        {run.steps.map((s, i) => (
          <StepView
            key={s.id}
            step={s}
            index={i}
            current={s === next}
            accountType={run.config.account.type}
          />
        ))}
      </ol>
      {run.steps.find((s) => s.id === 'receipt')?.status === 'running' ? (
        <div className="banner banner-muted" data-testid="sandbox-waiting">
          Waiting for the bundle. With manual or interval bundling the operation waits in the mempool:{' '}
          <button
            type="button"
            className="btn btn-small"
            data-testid="sandbox-bundle-now"
            onClick={() => void bundleNow()}
          >
            Bundle now
          </button>
        </div>
      ) : null}
      {run.declined ? (
        <div className="banner banner-warn" data-testid="sandbox-declined">
          <strong>The paymaster declined:</strong> {run.declined.reason ?? 'no reason recorded'}.{' '}
          {run.declined.decisionId ? (
            <Link to={`activity/dec:${run.declined.decisionId}`}>See the decision</Link>
          ) : null}
        </div>
      ) : null}
      {run.userOpHash ? (
        <div className="kv-grid" style={{ marginTop: 8 }}>
          <Kv label="userOpHash">
            <span className="hex-wrap">
              <Hex value={run.userOpHash} short={false} copy testId="sandbox-userop-hash" />
              {run.steps.find((s) => s.id === 'send')?.status === 'done' ? (
                <Link to={`activity/op:${run.userOpHash}`} testId="sandbox-open-activity">
                  Open in Activity
                </Link>
              ) : null}
            </span>
          </Kv>
        </div>
      ) : null}
      {done ? (
        <div className="banner banner-ok" data-testid="sandbox-done">
          Mined.{' '}
          {run.config.mode === 'SPONSORED'
            ? 'The dApp’s gas tank paid for it.'
            : run.config.mode === 'ERC20'
              ? 'The account paid in tokens.'
              : 'The account paid in ETH.'}
        </div>
      ) : null}
      {run.op ? (
        <details className="details">
          <summary>Current UserOperation</summary>
          <JsonView value={run.op} testId="sandbox-op" />
        </details>
      ) : null}
    </Section>
  )
}

export function SandboxPage() {
  const status = useServiceStore((s) => s.status)
  const loadAccounts = useSandboxStore((s) => s.loadAccounts)
  const selected = useSandboxStore((s) => s.selectedAddress)
  const account = useSandboxStore((s) => s.accounts.data?.find((a) => a.address === selected))
  const start = useSandboxStore((s) => s.start)
  const busy = useSandboxStore((s) => s.busy)
  const apiKey = usePaymastersStore((s) => s.selectedApiKey)
  const paymasters = usePaymastersStore((s) => s.list.data)
  const { tokens, tokenPaymasterFor } = useChainTokens()
  const [mode, setMode] = useState<SandboxMode>('SPONSORED')
  const [feeToken, setFeeToken] = useState<string>('')
  const [webhookData, setWebhookData] = useState('{\n  "source": "opstation-sandbox"\n}')
  const [draft, setDraft] = useState<CallDraft>({ call: null, error: null, summary: '' })
  const [startError, setStartError] = useState<string | null>(null)
  /** The user pressed Send or Step through: the call's problems show on every field, not only those left. */
  const [submitted, setSubmitted] = useState(false)
  useEffect(() => {
    void loadAccounts()
  }, [loadAccounts])

  const chainReady = status?.chain.state === 'ready'
  const token = feeToken || tokens[0]?.address || ''

  function begin(runAllSteps: boolean) {
    setStartError(null)
    setSubmitted(true)
    if (!account) return setStartError('Create or pick a smart account first.')
    if (!apiKey && mode !== 'SELF') return setStartError('Pick a dApp: its paymaster URL is used.')
    // The call builder shows what is wrong with the call next to its fields.
    if (!draft.call) return
    let data: unknown = {}
    if (mode === 'SPONSORED' && webhookData.trim()) {
      try {
        data = JSON.parse(webhookData)
      } catch (err) {
        return setStartError(`webhookData is not valid JSON: ${(err as Error).message}`)
      }
    }
    if (!status) return
    start({
      account,
      apiKey: apiKey ?? '',
      paymasterUrl: paymasterUrlFor(status, apiKey ?? ''),
      bundlerUrl: status.bundlerUrl,
      mode,
      feeToken: mode === 'ERC20' ? token : null,
      tokenPaymaster: tokenPaymasterFor(account.entryPointVersion),
      calls: [draft.call],
      webhookData: data,
    })
    if (runAllSteps) void useSandboxStore.getState().runAll()
  }

  return (
    <div className="page" data-testid="sandbox-page">
      <PageHeader
        title="Sandbox"
        subtitle="Send a UserOperation the way a dApp does, one request at a time, and see each request and response."
        actions={<DappPicker />}
      />
      {!chainReady ? (
        <ErrorBanner
          message={
            status?.chain.state === 'none'
              ? 'No chain is running: the sandbox needs one.'
              : `The chain is ${status?.chain.state ?? 'unknown'}.`
          }
        />
      ) : null}
      <div className="split">
        <div>
          <AccountPanel />
          <Section title="Who pays" testId="sandbox-mode">
            <div className="segmented">
              {(
                [
                  ['SPONSORED', 'Sponsored (gas tank)'],
                  ['ERC20', 'ERC20 token'],
                  ['SELF', 'Self-paid (ETH)'],
                ] as const
              ).map(([id, label]) => (
                <button
                  key={id}
                  type="button"
                  className={`seg${mode === id ? ' seg-active' : ''}`}
                  data-testid={`mode-${id}`}
                  onClick={() => setMode(id)}
                >
                  {label}
                </button>
              ))}
            </div>
            {mode === 'SPONSORED' ? (
              <label className="field" style={{ marginTop: 8 }}>
                <span>webhookData (sent to the dApp's webhook, if one is active)</span>
                <textarea
                  className="mono"
                  rows={3}
                  value={webhookData}
                  onChange={(e) => setWebhookData(e.target.value)}
                  data-testid="sandbox-webhook-data"
                />
              </label>
            ) : null}
            {mode === 'ERC20' ? (
              <div className="form-row" style={{ marginTop: 8 }}>
                <label className="field">
                  <span>Fee token</span>
                  <select
                    value={token}
                    onChange={(e) => setFeeToken(e.target.value)}
                    data-testid="sandbox-fee-token"
                  >
                    {tokens.map((t) => (
                      <option key={t.address} value={t.address}>
                        {t.symbol}
                      </option>
                    ))}
                  </select>
                </label>
                <div className="hint">
                  The account approves the token paymaster in the same operation, then pays its fee in this
                  token.
                </div>
              </div>
            ) : null}
            {mode === 'SELF' ? (
              <p className="hint">No paymaster: the account pays gas from its own ETH (use the faucet).</p>
            ) : null}
            {paymasters && paymasters.length === 0 && mode !== 'SELF' ? (
              <div className="muted">
                No dApp yet: <Link to="paymasters">create one</Link> to get a paymaster.
              </div>
            ) : null}
          </Section>
        </div>
        <div>
          <Section title="Call" testId="sandbox-call">
            <CallBuilder
              apiKey={apiKey}
              account={account?.address ?? null}
              showErrors={submitted}
              onChange={setDraft}
            />
            <div className="inline-actions" style={{ marginTop: 10 }}>
              <button
                type="button"
                className="btn"
                disabled={busy || !chainReady}
                data-testid="sandbox-start"
                onClick={() => begin(false)}
              >
                Step through
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || !chainReady}
                data-testid="sandbox-send"
                onClick={() => begin(true)}
              >
                Send
              </button>
            </div>
            <ErrorBanner message={startError} testId="sandbox-start-error" />
          </Section>
        </div>
      </div>
      <RunPanel />
    </div>
  )
}
