import { useEffect, useState } from 'react'
import { DappPicker } from '../../components/DappPicker'
import { ErrorBanner } from '../../components/Feedback'
import { PageHeader, Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { usePaymastersStore } from '../../stores/usePaymastersStore'
import { useServiceStore } from '../../stores/useServiceStore'
import { findChain, listChains, pickChain, pickDappOnChain, runsSeveralChains } from '../chains/chainList'
import { AccountPanel } from './AccountPanel'
import { CallBuilder } from './CallBuilder'
import { ChainRunsPanel } from './ChainRunsPanel'
import { type ChainRunOutcome, type RunRequest, runConfigOn } from './chainRuns'
import type { CallDraft } from './draftCall'
import { ReplayPanel } from './ReplayPanel'
import { RunPanel } from './RunPanel'
import type { RunConfig, SandboxMode } from './run'
import { useChainTokens } from './useChainTokens'
import { useSandboxStore } from './useSandboxStore'

/**
 * Sandbox: send a UserOperation the way a dApp does (an account, who pays, a call), one request at a time, and see
 * each request and response; simulate it first, or edit and simulate again an operation opened from Activity.
 */
export function SandboxPage() {
  const status = useServiceStore((s) => s.status)
  const loadAccounts = useSandboxStore((s) => s.loadAccounts)
  const preferredChainId = useSandboxStore((s) => s.preferredChainId)
  const preferChain = useSandboxStore((s) => s.preferChain)
  const select = usePaymastersStore((s) => s.select)
  const selected = useSandboxStore((s) => s.selectedAddress)
  const account = useSandboxStore((s) => s.accounts.data?.find((a) => a.address === selected))
  const start = useSandboxStore((s) => s.start)
  const runOnChains = useSandboxStore((s) => s.runOnChains)
  const busy = useSandboxStore((s) => s.busy)
  const selectedApiKey = usePaymastersStore((s) => s.selectedApiKey)
  const paymasters = usePaymastersStore((s) => s.list.data)
  // Several chains: the sandbox acts on the chain picked (the first until one is), with a dApp of that chain.
  const severalChains = runsSeveralChains(status)
  const chainId = severalChains ? pickChain(status, preferredChainId)?.chainId : undefined
  const dapp =
    chainId === undefined
      ? paymasters?.find((p) => p.apiKey === selectedApiKey)
      : pickDappOnChain(paymasters ?? [], selectedApiKey, chainId)
  const apiKey = chainId === undefined ? selectedApiKey : (dapp?.apiKey ?? null)
  const { tokens, tokenPaymasterFor } = useChainTokens()
  const [mode, setMode] = useState<SandboxMode>('SPONSORED')
  const [feeToken, setFeeToken] = useState<string>('')
  const [webhookData, setWebhookData] = useState('{\n  "source": "opstation-sandbox"\n}')
  const [draft, setDraft] = useState<CallDraft>({ call: null, error: null, summary: '' })
  const [startError, setStartError] = useState<string | null>(null)
  /** The user pressed Send or Step through: the call's problems show on every field, not only those left. */
  const [submitted, setSubmitted] = useState(false)
  useEffect(() => {
    void loadAccounts(chainId)
  }, [loadAccounts, chainId])
  // The dApp picker shows the dApp the sandbox uses on its chain.
  useEffect(() => {
    if (chainId !== undefined && apiKey && apiKey !== selectedApiKey) select(apiKey)
  }, [chainId, apiKey, selectedApiKey, select])

  const chainState =
    (chainId === undefined ? undefined : findChain(status, chainId)?.state) ?? status?.chain.state
  const chainReady = chainState === 'ready'
  const token = feeToken || tokens[0]?.address || ''

  /** What the run sends, checked; null (with the reason shown) when something is missing. */
  function readRequest(): RunRequest | null {
    setStartError(null)
    setSubmitted(true)
    if (!account) {
      setStartError('Create or pick a smart account first.')
      return null
    }
    // The call builder shows what is wrong with the call next to its fields.
    if (!draft.call) return null
    let data: unknown = {}
    if (mode === 'SPONSORED' && webhookData.trim()) {
      try {
        data = JSON.parse(webhookData)
      } catch (err) {
        setStartError(`webhookData is not valid JSON: ${(err as Error).message}`)
        return null
      }
    }
    return {
      account,
      mode,
      feeToken: mode === 'ERC20' ? token : null,
      tokenPaymaster: tokenPaymasterFor(account.entryPointVersion),
      calls: [draft.call],
      webhookData: data,
    }
  }

  function begin(then: 'step' | 'send' | 'simulate') {
    setSubmitted(true)
    if (!account) return setStartError('Create or pick a smart account first.')
    if (!apiKey && mode !== 'SELF') {
      return setStartError(
        chainId === undefined
          ? 'Pick a dApp: its paymaster URL is used.'
          : `Create a dApp on chain ${chainId}: its paymaster URL is used.`,
      )
    }
    const request = readRequest()
    if (!request || !status) return
    start(
      runConfigOn(
        status,
        chainId,
        apiKey ? { apiKey, chainId: dapp?.chainId ?? status.chainId } : null,
        request,
      ),
    )
    if (then === 'send') void useSandboxStore.getState().runAll()
    if (then === 'simulate') void useSandboxStore.getState().simulateRun()
  }

  /** The same operation on every chain, one after another, each with that chain's dApp (the same name first). */
  function sendOnEveryChain() {
    const request = readRequest()
    if (!request || !status) return
    const runs: RunConfig[] = []
    const skipped: ChainRunOutcome[] = []
    for (const chain of listChains(status)) {
      const onChain = pickDappOnChain(paymasters ?? [], selectedApiKey, chain.chainId)
      if (!onChain && mode !== 'SELF')
        skipped.push({
          chainId: chain.chainId,
          ok: false,
          outcome: 'no dApp on this chain',
          userOpHash: null,
        })
      else if (chain.state !== 'ready')
        skipped.push({ chainId: chain.chainId, ok: false, outcome: `chain ${chain.state}`, userOpHash: null })
      else runs.push(runConfigOn(status, chain.chainId, onChain, request))
    }
    void runOnChains(runs, skipped)
  }

  return (
    <div className="page" data-testid="sandbox-page">
      <PageHeader
        title="Sandbox"
        subtitle="Send a UserOperation the way a dApp does, one request at a time, and see each request and response."
        actions={
          <>
            {severalChains && chainId !== undefined ? (
              <label className="inline-field">
                <span>Chain</span>
                <select
                  data-testid="sandbox-chain"
                  value={String(chainId)}
                  onChange={(e) => preferChain(Number(e.target.value))}
                >
                  {listChains(status).map((c) => (
                    <option key={c.chainId} value={String(c.chainId)}>
                      {c.chainId}
                      {c.state === 'ready' ? '' : ` · ${c.state}`}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <DappPicker chainId={chainId ?? null} />
          </>
        }
      />
      {!chainReady ? (
        <ErrorBanner
          message={
            chainState === 'none'
              ? 'No chain is running: the sandbox needs one.'
              : chainId === undefined
                ? `The chain is ${chainState ?? 'unknown'}.`
                : `Chain ${chainId} is ${chainState ?? 'unknown'}.`
          }
        />
      ) : null}
      <ReplayPanel />
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
            ) : paymasters && chainId !== undefined && !dapp && mode !== 'SELF' ? (
              <div className="muted" data-testid="sandbox-no-dapp-on-chain">
                No dApp on chain {chainId} yet: <Link to="paymasters">create one</Link> to get a paymaster
                there.
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
                onClick={() => begin('step')}
              >
                Step through
              </button>
              <button
                type="button"
                className="btn"
                disabled={busy || !chainReady}
                data-testid="sandbox-simulate"
                title="Build, sign and simulate the operation (opstation_simulateUserOperation) without sending it"
                onClick={() => begin('simulate')}
              >
                Simulate
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || !chainReady}
                data-testid="sandbox-send"
                onClick={() => begin('send')}
              >
                Send
              </button>
              {severalChains ? (
                <button
                  type="button"
                  className="btn"
                  disabled={busy}
                  data-testid="sandbox-send-every-chain"
                  title="Send the same operation on each chain in turn, each with a dApp of that chain"
                  onClick={sendOnEveryChain}
                >
                  Send on every chain
                </button>
              ) : null}
            </div>
            <ErrorBanner message={startError} testId="sandbox-start-error" />
          </Section>
        </div>
      </div>
      <ChainRunsPanel />
      <RunPanel />
    </div>
  )
}
