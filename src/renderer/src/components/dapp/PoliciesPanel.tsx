import { useEffect, useState } from 'react'
import type { DappPolicies, DappPoliciesDraft, SpendingLimitDraft } from '../../../../shared/api/dapps'
import { errorMessage } from '../../api/http'
import { usePoliciesStore } from '../../stores/usePoliciesStore'
import { ErrorBanner, NotAvailable, Spinner } from '../Feedback'
import { Section } from '../Layout'
import { BlockWindowFields } from './BlockWindowFields'

function toLocalInput(seconds: number | null): string {
  if (seconds === null) return ''
  const d = new Date(seconds * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

function fromLocalInput(value: string): number | null {
  if (!value) return null
  const ms = new Date(value).getTime()
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000)
}

const NEW_LIMIT: SpendingLimitDraft = {
  type: 'SMART_ACCOUNT',
  thresholdType: 'COUNT',
  threshold: '10',
  cycleDuration: { value: 1, unit: 'day' },
  active: true,
}

function PolicyEditor({ apiKey, initial }: { apiKey: string; initial: DappPolicies }) {
  const save = usePoliciesStore((s) => s.save)
  const [draft, setDraft] = useState<DappPoliciesDraft>(initial)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const setLimit = (index: number, change: Partial<SpendingLimitDraft>) =>
    setDraft((d) => ({ ...d, limits: d.limits.map((l, i) => (i === index ? { ...l, ...change } : l)) }))

  async function submit() {
    setBusy(true)
    setError(null)
    setSaved(false)
    try {
      await save(apiKey, draft)
      setSaved(true)
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack" data-testid="policies-editor">
      <Section
        title="Spending limits"
        actions={
          <button
            type="button"
            className="btn btn-small"
            data-testid="limit-add"
            onClick={() => setDraft((d) => ({ ...d, limits: [...d.limits, { ...NEW_LIMIT }] }))}
          >
            Add limit
          </button>
        }
      >
        {draft.limits.length === 0 ? (
          <div className="muted">No limit: sponsorship is bounded only by the gas tank.</div>
        ) : null}
        <table className="table compact">
          <tbody>
            {draft.limits.map((limit, i) => (
              <tr key={limit.id ?? i} data-testid="limit-row">
                <td>
                  <select
                    value={limit.type}
                    onChange={(e) => setLimit(i, { type: e.target.value as SpendingLimitDraft['type'] })}
                  >
                    <option value="SMART_ACCOUNT">per smart account</option>
                    <option value="PAYMASTER">whole dApp</option>
                  </select>
                </td>
                <td>at most</td>
                <td>
                  <input
                    className="mono narrow"
                    value={limit.threshold}
                    onChange={(e) => setLimit(i, { threshold: e.target.value.trim() })}
                    data-testid="limit-threshold"
                  />
                </td>
                <td>
                  <select
                    value={limit.thresholdType}
                    onChange={(e) =>
                      setLimit(i, { thresholdType: e.target.value as SpendingLimitDraft['thresholdType'] })
                    }
                  >
                    <option value="COUNT">operations</option>
                    <option value="NATIVE_ASSET">wei of gas</option>
                  </select>
                </td>
                <td>every</td>
                <td>
                  <input
                    className="narrow"
                    type="number"
                    min={1}
                    value={limit.cycleDuration.value}
                    onChange={(e) =>
                      setLimit(i, {
                        cycleDuration: { ...limit.cycleDuration, value: Number(e.target.value) },
                      })
                    }
                  />
                </td>
                <td>
                  <select
                    value={limit.cycleDuration.unit}
                    onChange={(e) =>
                      setLimit(i, {
                        cycleDuration: { ...limit.cycleDuration, unit: e.target.value as 'hour' | 'day' },
                      })
                    }
                  >
                    <option value="hour">hour(s)</option>
                    <option value="day">day(s)</option>
                  </select>
                </td>
                <td>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={limit.active !== false}
                      onChange={(e) => setLimit(i, { active: e.target.checked })}
                    />{' '}
                    active
                  </label>
                </td>
                <td>
                  <button
                    type="button"
                    className="btn btn-small btn-danger-ghost"
                    onClick={() => setDraft((d) => ({ ...d, limits: d.limits.filter((_, j) => j !== i) }))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title="Validity window">
        <p className="hint">Sponsor only between these times (local time). Leave empty for no bound.</p>
        <div className="form-row">
          <label className="field">
            <span>Valid after</span>
            <input
              type="datetime-local"
              data-testid="policy-valid-after"
              value={toLocalInput(draft.validAfter)}
              onChange={(e) => setDraft((d) => ({ ...d, validAfter: fromLocalInput(e.target.value) }))}
            />
          </label>
          <label className="field">
            <span>Valid until</span>
            <input
              type="datetime-local"
              data-testid="policy-valid-until"
              value={toLocalInput(draft.validUntil)}
              onChange={(e) => setDraft((d) => ({ ...d, validUntil: fromLocalInput(e.target.value) }))}
            />
          </label>
        </div>
      </Section>
      <BlockWindowFields
        value={draft.blockWindow}
        onChange={(blockWindow) => setDraft((d) => ({ ...d, blockWindow }))}
      />
      <Section title="ERC20 mode">
        <div className="form-row">
          <label className="field">
            <span>Premium on token fee quotes (%)</span>
            <input
              type="number"
              min={0}
              max={100}
              step={0.1}
              data-testid="policy-premium"
              value={draft.premiumPercentage}
              onChange={(e) => setDraft((d) => ({ ...d, premiumPercentage: Number(e.target.value) }))}
            />
          </label>
        </div>
      </Section>
      <div className="inline-actions">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          data-testid="policies-save"
          onClick={() => void submit()}
        >
          {busy ? 'Saving…' : 'Save policies'}
        </button>
        {saved ? (
          <span className="ok-text" data-testid="policies-saved">
            Saved.
          </span>
        ) : null}
      </div>
      <ErrorBanner message={error} testId="policies-error" />
    </div>
  )
}

/** Sponsorship policies of one dApp: spending limits, validity window, v0.9 block window, ERC20 premium. */
export function PoliciesPanel({ apiKey }: { apiKey: string }) {
  const state = usePoliciesStore((s) => s.byApiKey[apiKey])
  const load = usePoliciesStore((s) => s.load)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])
  if (state?.notAvailable) {
    return (
      <NotAvailable
        what="Policies (limits, validity window, ERC20 premium)"
        endpoint="GET|PATCH /console/api/dapps/:apiKey/policies"
      />
    )
  }
  if (!state?.data) {
    return state?.error ? (
      <ErrorBanner message={state.error} onRetry={() => void load(apiKey)} />
    ) : (
      <Spinner label="Loading policies…" />
    )
  }
  return <PolicyEditor key={apiKey} apiKey={apiKey} initial={state.data} />
}
