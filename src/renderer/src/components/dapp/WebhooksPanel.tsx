import { type FormEvent, useEffect, useState } from 'react'
import type { WebhookCallView, WebhookView } from '../../../../shared/api/webhooks'
import { errorMessage } from '../../api/http'
import { formatTime } from '../../lib/format'
import { useWebhooksStore } from '../../stores/useWebhooksStore'
import { ActionButton } from '../ActionButton'
import { ConfirmButton } from '../ConfirmButton'
import { Badge, Empty, ErrorBanner, NotAvailable, Spinner } from '../Feedback'
import { JsonView } from '../JsonView'
import { Section } from '../Layout'
import { VirtualTable } from '../VirtualTable'

function RegisterWebhookForm({ apiKey }: { apiKey: string }) {
  const create = useWebhooksStore((s) => s.create)
  const [url, setUrl] = useState('')
  const [requestType, setRequestType] = useState<'GET' | 'POST'>('POST')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await create(apiKey, { webhookUrl: url.trim(), requestType })
      setUrl('')
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Section title="Register a webhook" testId="register-webhook">
      <p className="hint">
        Before sponsoring a request that carries <code>sponsorshipInfo.webhookData</code>, the paymaster calls
        this URL and sponsors only if it answers <code>{'{"arePoliciesVerified": true}'}</code>. Localhost
        URLs work: no tunnel needed.
      </p>
      <form className="form-row" onSubmit={submit}>
        <label className="field field-wide">
          <span>Webhook URL</span>
          <input
            data-testid="webhook-url"
            className="mono"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="http://127.0.0.1:3000/sponsor"
            required
          />
        </label>
        <label className="field">
          <span>Method</span>
          <select
            data-testid="webhook-method"
            value={requestType}
            onChange={(e) => setRequestType(e.target.value as 'GET' | 'POST')}
          >
            <option value="POST">POST</option>
            <option value="GET">GET</option>
          </select>
        </label>
        <ActionButton
          label="Register"
          busyLabel="Registering…"
          busy={busy}
          disabled={!url.trim()}
          testId="webhook-register"
        />
      </form>
      <ErrorBanner message={error} testId="register-webhook-error" />
    </Section>
  )
}

function WebhookTest({ apiKey, webhook }: { apiKey: string; webhook: WebhookView }) {
  const test = useWebhooksStore((s) => s.test)
  const result = useWebhooksStore((s) => s.tests[webhook.webhookId])
  const [data, setData] = useState('{\n  "userId": "alice"\n}')
  const [parseError, setParseError] = useState<string | null>(null)
  function send() {
    let parsed: unknown
    try {
      parsed = JSON.parse(data)
      setParseError(null)
    } catch (err) {
      setParseError(`webhookData is not valid JSON: ${(err as Error).message}`)
      return
    }
    void test(apiKey, webhook.webhookId, parsed)
  }
  return (
    <div className="webhook-test" data-testid="webhook-test">
      <label className="field">
        <span>webhookData for a test call</span>
        <textarea
          className="mono"
          rows={3}
          value={data}
          onChange={(e) => setData(e.target.value)}
          data-testid="webhook-test-data"
        />
      </label>
      <button
        type="button"
        className="btn btn-small"
        disabled={result?.running}
        onClick={send}
        data-testid="webhook-test-send"
      >
        {result?.running ? 'Calling…' : 'Send test call'}
      </button>
      {parseError ? <div className="field-error">{parseError}</div> : null}
      {result && !result.running ? (
        result.ok ? (
          <TestOutcome call={result.call} />
        ) : result.notAvailable ? (
          <NotAvailable
            what="Webhook test calls"
            endpoint="POST /console/api/dapps/:apiKey/webhooks/:webhookId/test"
          />
        ) : (
          <ErrorBanner message={result.error} testId="webhook-test-error" />
        )
      ) : null}
    </div>
  )
}

/** `{"a":1}` strings in a logged request/response become objects, for reading. */
function withParsedBody(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value
  const body = (value as { body?: unknown }).body
  if (typeof body !== 'string') return value
  try {
    return { ...value, body: JSON.parse(body) }
  } catch {
    return value
  }
}

function TestOutcome({ call }: { call: WebhookCallView }) {
  return (
    <div className="stack" data-testid="webhook-test-result">
      <div className="inline-actions">
        <Badge tone={verdictTone(call)} testId="webhook-test-verdict">
          {call.verdict}
        </Badge>
        <span className="muted small">
          HTTP {call.httpStatus ?? '—'} · {call.latencyMs} ms
        </span>
        {call.error ? <span className="field-error">{call.error}</span> : null}
      </div>
      <div className="grid-2">
        <div>
          <h3>Sent</h3>
          <JsonView value={withParsedBody(call.request)} maxHeight={200} />
        </div>
        <div>
          <h3>Answered</h3>
          <JsonView value={withParsedBody(call.response)} maxHeight={200} />
        </div>
      </div>
    </div>
  )
}

function WebhookCard({ apiKey, webhook }: { apiKey: string; webhook: WebhookView }) {
  const setActive = useWebhooksStore((s) => s.setActive)
  const remove = useWebhooksStore((s) => s.remove)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [testing, setTesting] = useState(false)
  async function run(action: () => Promise<void>) {
    setBusy(true)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="card" data-testid={`webhook-${webhook.webhookId}`} data-webhook-url={webhook.webhookUrl}>
      <div className="card-head">
        <div className="hex-wrap">
          <Badge tone="info">{webhook.requestType}</Badge>
          <code className="mono" data-testid="webhook-card-url">
            {webhook.webhookUrl}
          </code>
          <Badge tone={webhook.active ? 'ok' : 'neutral'} testId="webhook-status">
            {webhook.active ? 'active' : 'inactive'}
          </Badge>
        </div>
        <div className="inline-actions">
          <button
            type="button"
            className="btn btn-small"
            disabled={busy}
            data-testid="webhook-toggle"
            onClick={() => void run(() => setActive(apiKey, webhook.webhookId, !webhook.active))}
          >
            {webhook.active ? 'Deactivate' : 'Activate'}
          </button>
          <button
            type="button"
            className="btn btn-small"
            data-testid="webhook-test-open"
            onClick={() => setTesting(!testing)}
          >
            {testing ? 'Close test' : 'Test'}
          </button>
          <ConfirmButton
            label="Delete"
            testId="webhook-delete"
            disabled={busy}
            onConfirm={() => void run(() => remove(apiKey, webhook.webhookId))}
          />
        </div>
      </div>
      <div className="muted small">
        id <code className="mono">{webhook.webhookId}</code>
      </div>
      {testing ? <WebhookTest apiKey={apiKey} webhook={webhook} /> : null}
      <ErrorBanner message={error} testId="webhook-error" />
    </div>
  )
}

function verdictTone(call: WebhookCallView): 'ok' | 'bad' {
  return call.verdict === 'verified' ? 'ok' : 'bad'
}

function WebhookCallLog({ apiKey }: { apiKey: string }) {
  const calls = useWebhooksStore((s) => s.calls[apiKey])
  const loadCalls = useWebhooksStore((s) => s.loadCalls)
  const [selected, setSelected] = useState<string | null>(null)
  useEffect(() => {
    void loadCalls(apiKey)
    const timer = setInterval(() => void loadCalls(apiKey), 3000)
    return () => clearInterval(timer)
  }, [apiKey, loadCalls])
  if (calls?.notAvailable) {
    return (
      <Section title="Call log" testId="webhook-calls">
        <NotAvailable what="The webhook call log" endpoint="GET /console/api/dapps/:apiKey/webhook-calls" />
      </Section>
    )
  }
  const rows = calls?.data ?? []
  const current = rows.find((c) => c.id === selected)
  return (
    <Section
      title={`Call log (${rows.length})`}
      testId="webhook-calls"
      actions={calls?.loading && !calls.data ? <Spinner /> : null}
    >
      <ErrorBanner message={calls?.error} />
      <VirtualTable
        rows={rows}
        rowKey={(c) => c.id}
        selectedKey={selected}
        onRowClick={(c) => setSelected(c.id === selected ? null : c.id)}
        height={260}
        testId="webhook-calls-table"
        rowTestId={() => 'webhook-call-row'}
        empty="No call yet. The paymaster calls an active webhook when a sponsored request carries webhookData."
        columns={[
          {
            id: 'at',
            header: 'Time',
            width: '90px',
            render: (c) => formatTime(c.at),
          },
          {
            id: 'method',
            header: 'Method',
            width: '72px',
            render: (c) => c.method,
          },
          {
            id: 'url',
            header: 'URL',
            width: 'minmax(160px, 1fr)',
            render: (c) => <code className="mono">{c.webhookUrl}</code>,
          },
          {
            id: 'status',
            header: 'HTTP',
            width: '60px',
            render: (c) => String(c.httpStatus ?? '—'),
          },
          {
            id: 'latency',
            header: 'Latency',
            width: '80px',
            render: (c) => `${c.latencyMs} ms`,
          },
          {
            id: 'verdict',
            header: 'Verdict',
            width: '140px',
            render: (c) => <Badge tone={verdictTone(c)}>{c.verdict}</Badge>,
          },
        ]}
      />
      {current ? (
        <div className="grid-2" data-testid="webhook-call-detail">
          <div>
            <h3>Request</h3>
            <JsonView value={withParsedBody(current.request)} maxHeight={260} />
          </div>
          <div>
            <h3>Response</h3>
            {current.error ? <ErrorBanner message={current.error} /> : null}
            <JsonView value={withParsedBody(current.response)} maxHeight={260} />
          </div>
        </div>
      ) : null}
    </Section>
  )
}

/** Webhooks of one dApp: register, activate/deactivate, delete, test, and the log of every call. */
export function WebhooksPanel({ apiKey }: { apiKey: string }) {
  const state = useWebhooksStore((s) => s.byApiKey[apiKey])
  const load = useWebhooksStore((s) => s.load)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])
  return (
    <div data-testid="webhooks-panel">
      <RegisterWebhookForm apiKey={apiKey} />
      <Section title="Registered webhooks" actions={state?.loading ? <Spinner /> : null}>
        <ErrorBanner message={state?.error} onRetry={() => void load(apiKey)} />
        {state?.data?.length === 0 ? (
          <Empty testId="webhooks-empty">No webhook registered for this dApp.</Empty>
        ) : null}
        <div className="stack">
          {state?.data?.map((w) => (
            <WebhookCard key={w.webhookId} apiKey={apiKey} webhook={w} />
          ))}
        </div>
      </Section>
      <WebhookCallLog apiKey={apiKey} />
    </div>
  )
}
