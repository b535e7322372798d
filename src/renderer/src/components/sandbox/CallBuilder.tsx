import { useEffect, useMemo, useState } from 'react'
import { type AbiFunction, encodeFunctionData } from 'viem'
import type { SandboxCall } from '../../../../shared/sandbox'
import { formatSignature, parseAbiText, parseArgument } from '../../lib/abi'
import { keyed, parseUnits } from '../../lib/format'
import { useContractsStore } from '../../stores/useContractsStore'
import { Link } from '../Link'

export type CallDraft = { call: SandboxCall | null; error: string | null; summary: string }

function useRegisteredContracts(apiKey: string | null) {
  const state = useContractsStore((s) => (apiKey ? s.byApiKey[apiKey] : undefined))
  const load = useContractsStore((s) => s.load)
  useEffect(() => {
    if (apiKey) void load(apiKey)
  }, [apiKey, load])
  return state?.data ?? []
}

/** Builds one call: a method of a registered contract with typed argument fields, or raw callData. */
export function CallBuilder({
  apiKey,
  onChange,
}: {
  apiKey: string | null
  onChange: (draft: CallDraft) => void
}) {
  const contracts = useRegisteredContracts(apiKey)
  const [source, setSource] = useState<'contract' | 'raw'>('contract')
  const [contractAddress, setContractAddress] = useState('')
  const [methodKey, setMethodKey] = useState('')
  const [args, setArgs] = useState<Record<string, string>>({})
  const [valueEth, setValueEth] = useState('0')
  const [rawTo, setRawTo] = useState('')
  const [rawData, setRawData] = useState('0x')

  const contract = contracts.find((c) => c.address === contractAddress) ?? contracts[0]
  const functions = useMemo(() => {
    if (!contract) return [] as AbiFunction[]
    const parsed = parseAbiText(contract.abi)
    return parsed.ok ? parsed.callable : []
  }, [contract])
  const fn = functions.find((f) => formatSignature(f) === methodKey) ?? functions[0]

  const draft = useMemo<CallDraft>(() => {
    try {
      const value = parseUnits(valueEth || '0', 18).toString()
      if (source === 'raw') {
        if (!/^0x[0-9a-fA-F]{40}$/.test(rawTo.trim()))
          return { call: null, error: 'to: enter an address (0x + 40 hex digits)', summary: '' }
        if (!/^0x([0-9a-fA-F]{2})*$/.test(rawData.trim()))
          return { call: null, error: 'callData: enter 0x-prefixed hex bytes', summary: '' }
        return {
          call: { to: rawTo.trim(), value, data: rawData.trim() },
          error: null,
          summary: `raw call to ${rawTo.trim()}`,
        }
      }
      if (!contract || !fn)
        return {
          call: null,
          error: 'Pick a registered contract and method (or use raw callData).',
          summary: '',
        }
      const values = fn.inputs.map((input, i) => parseArgument(input, args[`${i}`] ?? ''))
      const data = encodeFunctionData({ abi: [fn], functionName: fn.name, args: values })
      const whitelisted = contract.whitelistedMethods.includes(fn.name)
      return {
        call: { to: contract.address, value, data },
        error: null,
        summary: `${contract.name}.${fn.name}(…) · ${whitelisted ? 'whitelisted' : 'NOT whitelisted'}`,
      }
    } catch (err) {
      return { call: null, error: (err as Error).message.split('\n')[0] ?? 'invalid call', summary: '' }
    }
  }, [source, rawTo, rawData, valueEth, contract, fn, args])

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
            <div className="form-row">
              <label className="field">
                <span>Contract</span>
                <select
                  data-testid="call-contract"
                  value={contract?.address ?? ''}
                  onChange={(e) => {
                    setContractAddress(e.target.value)
                    setMethodKey('')
                    setArgs({})
                  }}
                >
                  {contracts.map((c) => (
                    <option key={c.address} value={c.address}>
                      {c.name} ({c.address.slice(0, 8)}…)
                    </option>
                  ))}
                </select>
              </label>
              <label className="field field-wide">
                <span>Method</span>
                <select
                  data-testid="call-method"
                  value={fn ? formatSignature(fn) : ''}
                  onChange={(e) => {
                    setMethodKey(e.target.value)
                    setArgs({})
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
                      value={args[`${i}`] ?? ''}
                      onChange={(e) => setArgs((a) => ({ ...a, [`${i}`]: e.target.value }))}
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
              value={rawTo}
              onChange={(e) => setRawTo(e.target.value)}
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
            inputMode="decimal"
          />
        </label>
      </div>
      {draft.error ? (
        <div className="field-error" data-testid="call-error">
          {draft.error}
        </div>
      ) : (
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
