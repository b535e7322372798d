import { type FormEvent, useEffect, useMemo, useState } from 'react'
import type { SmartContractView } from '../../../../shared/api/smartContracts'
import type { OpstationToken } from '../../../../shared/chainAddresses'
import { errorMessage } from '../../api/http'
import { parseAbiText } from '../../lib/abi'
import { testTokenAbiText } from '../../lib/sampleAbis'
import { useContractsStore } from '../../stores/useContractsStore'
import { useServiceStore } from '../../stores/useServiceStore'
import { ConfirmButton } from '../ConfirmButton'
import { Empty, ErrorBanner, Spinner } from '../Feedback'
import { Section } from '../Layout'
import { Hex } from '../Mono'

const NO_TOKENS: OpstationToken[] = []

/** The chain's test tokens (none without a chain). */
function useTestTokens(): OpstationToken[] {
  return useServiceStore((s) => s.status?.chain.addresses?.tokens ?? NO_TOKENS)
}

function MethodCheckboxes({
  methods,
  checked,
  onChange,
  testIdPrefix,
}: {
  methods: string[]
  checked: Set<string>
  onChange: (next: Set<string>) => void
  testIdPrefix: string
}) {
  if (methods.length === 0)
    return <span className="muted">No callable (state-changing) methods in this ABI.</span>
  return (
    <div className="checks">
      {methods.map((m) => (
        <label key={m} className="check">
          <input
            type="checkbox"
            data-testid={`${testIdPrefix}-${m}`}
            checked={checked.has(m)}
            onChange={(e) => {
              const next = new Set(checked)
              if (e.target.checked) next.add(m)
              else next.delete(m)
              onChange(next)
            }}
          />
          <code className="mono">{m}</code>
        </label>
      ))}
    </div>
  )
}

function AddContractForm({ apiKey }: { apiKey: string }) {
  const create = useContractsStore((s) => s.create)
  const tokens = useTestTokens()
  const [name, setName] = useState('')
  const [address, setAddress] = useState('')
  const [abiText, setAbiText] = useState('')
  const [whitelist, setWhitelist] = useState<Set<string>>(new Set())
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const parsed = useMemo(() => (abiText.trim() ? parseAbiText(abiText) : null), [abiText])

  function fillWithToken(token: OpstationToken) {
    setName(token.symbol)
    setAddress(token.address)
    setAbiText(testTokenAbiText)
    setWhitelist(new Set(['mint']))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const methods = parsed?.ok ? parsed.methodNames : []
      await create(apiKey, {
        name: name.trim(),
        address: address.trim(),
        abi: abiText,
        whitelistedMethods: [...whitelist].filter((m) => methods.includes(m)),
      })
      setName('')
      setAddress('')
      setAbiText('')
      setWhitelist(new Set())
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section
      title="Add a smart contract"
      testId="add-contract"
      actions={
        tokens.length ? (
          <span className="inline-actions">
            <span className="muted small">Fill with a test token:</span>
            {tokens.map((t) => (
              <button
                key={t.address}
                type="button"
                className="btn btn-small"
                data-testid={`use-token-${t.symbol}`}
                onClick={() => fillWithToken(t)}
              >
                {t.symbol}
              </button>
            ))}
          </span>
        ) : null
      }
    >
      <form onSubmit={submit} className="stack">
        <div className="form-row">
          <label className="field">
            <span>Name</span>
            <input
              data-testid="contract-name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Counter"
              required
            />
          </label>
          <label className="field field-wide">
            <span>Address</span>
            <input
              data-testid="contract-address"
              className="mono"
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              placeholder="0x…"
              required
              spellCheck={false}
            />
          </label>
        </div>
        <label className="field">
          <span>ABI (JSON array, or a compiler artifact)</span>
          <textarea
            data-testid="contract-abi"
            className="mono"
            rows={6}
            value={abiText}
            onChange={(e) => setAbiText(e.target.value)}
            placeholder='[{"type":"function","name":"increment","inputs":[],"outputs":[],"stateMutability":"nonpayable"}]'
            spellCheck={false}
          />
        </label>
        {parsed && !parsed.ok ? (
          <div className="field-error" data-testid="contract-abi-error">
            {parsed.error}
          </div>
        ) : null}
        {parsed?.ok ? (
          <div className="field">
            <span>Whitelisted methods (sponsored calls)</span>
            <MethodCheckboxes
              methods={parsed.methodNames}
              checked={whitelist}
              onChange={setWhitelist}
              testIdPrefix="new-method"
            />
          </div>
        ) : null}
        <div>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !name.trim() || !address.trim() || !abiText.trim()}
            data-testid="contract-add"
          >
            {busy ? 'Adding…' : 'Add contract'}
          </button>
        </div>
      </form>
      <ErrorBanner message={error} testId="add-contract-error" />
    </Section>
  )
}

function ContractRow({ apiKey, contract }: { apiKey: string; contract: SmartContractView }) {
  const updateWhitelist = useContractsStore((s) => s.updateWhitelist)
  const remove = useContractsStore((s) => s.remove)
  const [draft, setDraft] = useState<Set<string>>(() => new Set(contract.whitelistedMethods))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const saved = new Set(contract.whitelistedMethods)
  const dirty = draft.size !== saved.size || [...draft].some((m) => !saved.has(m))
  const methods = contract.methods?.length ? contract.methods : contract.whitelistedMethods

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
    <div className="card" data-testid={`contract-${contract.name}`}>
      <div className="card-head">
        <div>
          <strong>{contract.name}</strong> <Hex value={contract.address} copy />
        </div>
        <div className="inline-actions">
          {dirty ? (
            <>
              <button
                type="button"
                className="btn btn-small btn-primary"
                disabled={busy}
                data-testid="contract-save"
                onClick={() => void run(() => updateWhitelist(apiKey, contract.address, [...draft]))}
              >
                Save whitelist
              </button>
              <button
                type="button"
                className="btn btn-small btn-ghost"
                onClick={() => setDraft(new Set(contract.whitelistedMethods))}
              >
                Undo
              </button>
            </>
          ) : null}
          <ConfirmButton
            label="Delete"
            testId="contract-delete"
            disabled={busy}
            onConfirm={() => void run(() => remove(apiKey, contract.address))}
          />
        </div>
      </div>
      <div className="muted small">
        {contract.whitelistedMethods.length
          ? `Sponsored: ${contract.whitelistedMethods.join(', ')}`
          : 'No method whitelisted: calls to this contract are not sponsored.'}
      </div>
      <MethodCheckboxes methods={methods} checked={draft} onChange={setDraft} testIdPrefix="method" />
      <ErrorBanner message={error} testId="contract-error" />
    </div>
  )
}

/** Smart contracts of one dApp: add by address + ABI, whitelist methods, delete. */
export function ContractsPanel({ apiKey }: { apiKey: string }) {
  const state = useContractsStore((s) => s.byApiKey[apiKey])
  const load = useContractsStore((s) => s.load)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])
  return (
    <div data-testid="contracts-panel">
      <AddContractForm apiKey={apiKey} />
      <Section title="Registered contracts" actions={state?.loading ? <Spinner /> : null}>
        <p className="hint">
          With no contract registered every call is sponsored. Once one is registered, only calls to
          whitelisted methods of registered contracts are.
        </p>
        <ErrorBanner message={state?.error} onRetry={() => void load(apiKey)} />
        {state?.data?.length === 0 ? (
          <Empty testId="contracts-empty">No smart contract registered for this dApp.</Empty>
        ) : null}
        <div className="stack">
          {state?.data?.map((c) => (
            <ContractRow
              key={`${c.address}:${c.whitelistedMethods.join(',')}`}
              apiKey={apiKey}
              contract={c}
            />
          ))}
        </div>
      </Section>
    </div>
  )
}
