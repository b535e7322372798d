import { useState } from 'react'
import type { UserOperationJson } from '../../../../shared/sandbox'
import { consoleApi } from '../../api/console'
import { errorMessage } from '../../api/http'
import { rpcRequest } from '../../api/rpc'
import { ErrorBanner } from '../../components/Feedback'
import { Section } from '../../components/Layout'
import { Link } from '../../components/Link'
import { Hex } from '../../components/Mono'
import { useServiceStore } from '../../stores/useServiceStore'
import { chainUrlsOf } from '../chains/chainList'
import { ExplanationResult } from '../explain/ExplanationResult'
import { useExplanationRequest } from '../explain/useExplanationRequest'
import { bringUpToDate } from './replayChainState'
import { toReplayFields, toUserOperation, useReplayStore } from './useReplayStore'
import { useSandboxStore } from './useSandboxStore'

/** Fields long enough (calldata, signatures) to get a text area. */
const LONG_FIELDS = new Set([
  'callData',
  'initCode',
  'factoryData',
  'paymasterData',
  'paymasterAndData',
  'signature',
])

/**
 * An operation opened from Activity: its wire fields to edit (a limit, the callData), simulated again with
 * opstation_simulateUserOperation, signed again when its sender is a sandbox account (the service holds its key),
 * then sent.
 */
export function ReplayPanel() {
  const replay = useReplayStore((s) => s.replay)
  const setField = useReplayStore((s) => s.setField)
  const setFields = useReplayStore((s) => s.setFields)
  const close = useReplayStore((s) => s.close)
  const bundlerUrl = useServiceStore((s) => chainUrlsOf(s.status, replay?.chainId).bundlerUrl || undefined)
  const accounts = useSandboxStore((s) => s.accounts.data)
  const { request, ...simulation } = useExplanationRequest()
  const [message, setMessage] = useState<{ ok: boolean; text: string; userOpHash?: string } | null>(null)
  const [busy, setBusy] = useState(false)
  if (!replay) return null
  const sender = replay.fields.sender ?? ''
  const ownAccount = accounts?.find((a) => a.address.toLowerCase() === sender.toLowerCase())

  async function act(action: () => Promise<void>) {
    setBusy(true)
    setMessage(null)
    try {
      await action()
    } catch (err) {
      setMessage({ ok: false, text: errorMessage(err) })
    } finally {
      setBusy(false)
    }
  }
  const simulate = () =>
    act(async () => {
      if (!bundlerUrl) return
      await request(bundlerUrl, 'opstation_simulateUserOperation', [
        toUserOperation(replay.fields),
        replay.entryPoint,
      ])
    })
  const sign = () =>
    act(async () => {
      if (!ownAccount) return
      const signed = await consoleApi.sandbox.signUserOperation(
        ownAccount.address,
        { userOperation: toUserOperation(replay.fields) as UserOperationJson },
        replay.chainId,
      )
      setFields(toReplayFields(signed.userOperation), replay.changes)
      setMessage({ ok: true, text: `Signed again by ${ownAccount.label}.` })
    })
  const refresh = () =>
    act(async () => {
      if (!bundlerUrl) return
      const { fields, changes } = await bringUpToDate(bundlerUrl, replay.entryPoint, replay.fields)
      setFields(fields, changes.length ? changes : ['nothing: the nonce and deployment match the chain'])
    })
  const send = () =>
    act(async () => {
      if (!bundlerUrl) return
      const hash = await rpcRequest<string>(bundlerUrl, 'eth_sendUserOperation', [
        toUserOperation(replay.fields),
        replay.entryPoint,
      ])
      setMessage({ ok: true, text: 'Sent.', userOpHash: hash })
    })

  return (
    <Section
      title="Operation from Activity"
      testId="sandbox-replay"
      actions={
        <button type="button" className="btn btn-small btn-ghost" onClick={close} data-testid="replay-close">
          Close
        </button>
      }
    >
      <p className="hint">
        From <Link to={`activity/op:${replay.fromUserOpHash}`}>{replay.fromUserOpHash.slice(0, 12)}…</Link> on
        EntryPoint <Hex value={replay.entryPoint} />. Change a limit or the callData, simulate, then send.{' '}
        {ownAccount
          ? 'Its sender is a sandbox account: sign again after an edit (the signature covers every field).'
          : 'The signature covers every field: an edit needs a new signature from the account’s owner.'}
      </p>
      {replay.changes.length ? (
        <div className="banner banner-muted small" data-testid="replay-changes">
          Changed to match the chain now: {replay.changes.join('; ')}.
        </div>
      ) : null}
      <div className="replay-fields">
        {Object.entries(replay.fields).map(([name, value]) => (
          <ReplayField key={name} name={name} value={value} onChange={(text) => setField(name, text)} />
        ))}
      </div>
      <div className="inline-actions" style={{ marginTop: 10 }}>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || !bundlerUrl}
          data-testid="replay-simulate"
          onClick={() => void simulate()}
        >
          Simulate
        </button>
        {ownAccount ? (
          <button
            type="button"
            className="btn"
            disabled={busy}
            data-testid="replay-sign"
            onClick={() => void sign()}
          >
            Sign again
          </button>
        ) : null}
        <button
          type="button"
          className="btn"
          disabled={busy || !bundlerUrl}
          data-testid="replay-refresh"
          title="The sender's next nonce, and no deployment once the account has code"
          onClick={() => void refresh()}
        >
          Update nonce
        </button>
        <button
          type="button"
          className="btn"
          disabled={busy || !bundlerUrl}
          data-testid="replay-send"
          onClick={() => void send()}
        >
          Send
        </button>
      </div>
      {message?.ok ? (
        <div className="banner banner-ok" data-testid="replay-message">
          {message.text}{' '}
          {message.userOpHash ? (
            <Link to={`activity/op:${message.userOpHash}`} testId="replay-open-activity">
              Open in Activity
            </Link>
          ) : null}
        </div>
      ) : (
        <ErrorBanner message={message?.text} testId="replay-error" />
      )}
      <ExplanationResult state={simulation} testId="replay-simulation" loadingLabel="Simulating…" />
    </Section>
  )
}

/** One wire field of the replayed operation: a text area for calldata and signatures, else a line. */
function ReplayField({
  name,
  value,
  onChange,
}: {
  name: string
  value: string
  onChange: (text: string) => void
}) {
  const id = `replay-field-${name}`
  const long = LONG_FIELDS.has(name) || value.length > 80
  return (
    <div className={`field${long ? ' field-wide' : ''}`}>
      <label htmlFor={id} className="mono replay-label">
        {name}
      </label>
      {long ? (
        <textarea
          id={id}
          className="mono"
          rows={2}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={id}
        />
      ) : (
        <input
          id={id}
          className="mono"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={id}
        />
      )}
    </div>
  )
}
