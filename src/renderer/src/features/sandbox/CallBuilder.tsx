import { useEffect, useMemo, useState } from 'react'
import type { AbiFunction } from 'viem'
import { Link } from '../../components/Link'
import { formatSignature, parseAbiText } from '../../lib/abi'
import { keyed } from '../../lib/format'
import { useContractsStore } from '../../stores/useContractsStore'
import { argumentText, type CallDraft, draftCall } from './draftCall'

function useRegisteredContracts(apiKey: string | null) {
  const state = useContractsStore((s) => (apiKey ? s.byApiKey[apiKey] : undefined))
  const load = useContractsStore((s) => s.load)
  useEffect(() => {
    if (apiKey) void load(apiKey)
  }, [apiKey, load])
  return state?.data ?? []
}

/**
 * Builds one call: a method of a registered contract with typed argument fields, or raw callData. The call's
 * `to` (raw callData) and the method's address arguments start as the sandbox account itself, so a first
 * operation needs no typing; the user's own text replaces them. A problem is shown for a field once the user
 * has left it, or for every field once `showErrors` is set (the user pressed Send).
 */
export function CallBuilder({
  apiKey,
  account,
  showErrors,
  onChange,
}: {
  apiKey: string | null
  /** The sandbox account's address: the default `to` and address arguments. */
  account: string | null
  showErrors: boolean
  onChange: (draft: CallDraft) => void
}) {
  const contracts = useRegisteredContracts(apiKey)
  const [source, setSource] = useState<'contract' | 'raw'>('contract')
  const [contractAddress, setContractAddress] = useState('')
  const [methodKey, setMethodKey] = useState('')
  /** Argument texts the user typed, by index; the others show their default. */
  const [args, setArgs] = useState<Record<string, string>>({})
  const [valueEth, setValueEth] = useState('0')
  /** null until the user types a `to`: the account itself. */
  const [rawTo, setRawTo] = useState<string | null>(null)
  const [rawData, setRawData] = useState('0x')
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const touch = (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field)))

  const contract = contracts.find((c) => c.address === contractAddress) ?? contracts[0]
  const functions = useMemo(() => {
    if (!contract) return [] as AbiFunction[]
    const parsed = parseAbiText(contract.abi)
    return parsed.ok ? parsed.callable : []
  }, [contract])
  const fn = functions.find((f) => formatSignature(f) === methodKey) ?? functions[0]
  const to = rawTo ?? account ?? ''
  const argText = (key: string, type: string) => argumentText(args, account, key, type)

  const { draft, problems } = useMemo(
    () => draftCall({ source, account, valueEth, to, rawData, contract, fn, args }),
    [source, to, rawData, valueEth, contract, fn, args, account],
  )

  const shown = problems.find(
    (p) => showErrors || touched.has(p.field) || (p.field === 'args' && touched.size > 0),
  )
  const invalid = (field: string) => (shown?.field === field ? true : undefined)

  useEffect(() => onChange(draft), [draft, onChange])

  return (
    <div className="stack" data-testid="call-builder">
      <div className="segmented">
        <button
          type="button"
          className={`seg${source === 'contract' ? ' seg-active' : ''}`}
          data-testid="call-source-contract"
          onClick={() => setSource('contract')}
        >
          Registered contract
        </button>
        <button
          type="button"
          className={`seg${source === 'raw' ? ' seg-active' : ''}`}
          data-testid="call-source-raw"
          onClick={() => setSource('raw')}
        >
          Raw callData
        </button>
      </div>
      {source === 'contract' ? (
        contracts.length === 0 ? (
          <div className="muted">
            This dApp has no registered contract. <Link to="contracts">Add one</Link> or use raw callData.
          </div>
        ) : (
          <>
            {/* Contract and method each get the whole width: a method's signature is long. */}
            <div className="stack">
              <label className="field">
                <span>Contract</span>
                <select
                  data-testid="call-contract"
                  value={contract?.address ?? ''}
                  onChange={(e) => {
                    setContractAddress(e.target.value)
                    setMethodKey('')
                    setArgs({})
                    setTouched(new Set())
                  }}
                >
                  {contracts.map((c) => (
                    <option key={c.address} value={c.address}>
                      {c.name} ({c.address.slice(0, 8)}…)
                    </option>
                  ))}
                </select>
              </label>
              <label className="field">
                <span>Method</span>
                <select
                  data-testid="call-method"
                  value={fn ? formatSignature(fn) : ''}
                  onChange={(e) => {
                    setMethodKey(e.target.value)
                    setArgs({})
                    setTouched(new Set())
                  }}
                >
                  {functions.map((f) => (
                    <option key={formatSignature(f)} value={formatSignature(f)}>
                      {formatSignature(f)}
                      {contract?.whitelistedMethods.includes(f.name) ? '  ✓ whitelisted' : ''}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            {fn?.inputs.length ? (
              <div className="form-row">
                {keyed(fn.inputs).map(({ item: input, key: i }) => (
                  <label
                    key={`${fn.name}-${i}`}
                    className={`field${input.type === 'address' || input.type.startsWith('bytes') ? ' field-wide' : ''}`}
                  >
                    <span>
                      {input.name || `arg${i}`} <code className="mono">{input.type}</code>
                    </span>
                    <input
                      className="mono"
                      data-testid={`call-arg-${input.name || i}`}
                      value={argText(i, input.type)}
                      onChange={(e) => setArgs((a) => ({ ...a, [`${i}`]: e.target.value }))}
                      onBlur={() => touch(`arg-${i}`)}
                      aria-invalid={invalid(`arg-${i}`)}
                      placeholder={
                        input.type === 'address' ? '0x…' : input.type.startsWith('uint') ? '0' : input.type
                      }
                      spellCheck={false}
                    />
                  </label>
                ))}
              </div>
            ) : null}
          </>
        )
      ) : (
        <div className="form-row">
          <label className="field field-wide">
            <span>to</span>
            <input
              className="mono"
              data-testid="call-raw-to"
              value={to}
              onChange={(e) => setRawTo(e.target.value)}
              onBlur={() => touch('to')}
              aria-invalid={invalid('to')}
              placeholder="0x…"
              spellCheck={false}
            />
          </label>
          <label className="field field-wide">
            <span>callData</span>
            <input
              className="mono"
              data-testid="call-raw-data"
              value={rawData}
              onChange={(e) => setRawData(e.target.value)}
              onBlur={() => touch('data')}
              aria-invalid={invalid('data')}
              spellCheck={false}
            />
          </label>
        </div>
      )}
      <div className="form-row">
        <label className="field">
          <span>Value (ETH)</span>
          <input
            data-testid="call-value"
            value={valueEth}
            onChange={(e) => setValueEth(e.target.value)}
            onBlur={() => touch('value')}
            aria-invalid={invalid('value')}
            inputMode="decimal"
          />
        </label>
      </div>
      {shown ? (
        <div className="field-error" data-testid="call-error" data-field={shown.field}>
          {shown.message}
        </div>
      ) : draft.error ? null : (
        <div className="muted small" data-testid="call-summary">
          {draft.summary}
          {draft.call?.data && draft.call.data !== '0x' ? (
            <>
              {' '}
              · data{' '}
              <code className="mono">
                {draft.call.data.length > 74 ? `${draft.call.data.slice(0, 74)}…` : draft.call.data}
              </code>
            </>
          ) : null}
        </div>
      )}
    </div>
  )
}
