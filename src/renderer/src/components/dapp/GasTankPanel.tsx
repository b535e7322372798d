import { useEffect, useState } from 'react'
import { ENTRY_POINT_VERSIONS, type EntryPointVersion } from '../../../../shared/entryPointVersions'
import { errorMessage } from '../../api/http'
import { formatEth, parseUnits, toBigInt } from '../../lib/format'
import { useGasTankStore } from '../../stores/useGasTankStore'
import { ActionButton } from '../ActionButton'
import { Badge, ErrorBanner, NotAvailable, Spinner } from '../Feedback'
import { Kv } from '../Kv'
import { Section } from '../Layout'
import { Hex } from '../Mono'

/**
 * The dApp's gas tanks, one per EntryPoint version on that version's verifying paymaster under the one paymasterId:
 * every tank's balance, and deposit / withdraw on the chosen version's tank.
 */
export function GasTankPanel({ apiKey, paymasterId }: { apiKey: string; paymasterId?: string | null }) {
  const state = useGasTankStore((s) => s.byApiKey[apiKey])
  const pending = useGasTankStore((s) => s.pending[apiKey])
  const load = useGasTankStore((s) => s.load)
  const change = useGasTankStore((s) => s.change)
  const [amount, setAmount] = useState('1')
  const [chosenVersion, setVersion] = useState<EntryPointVersion | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])

  const tank = state?.data
  const tanks = tank?.tanks ?? []
  // The first tank the service lists (the oldest version) until one is chosen.
  const version = chosenVersion ?? tanks[0]?.entryPointVersion ?? ENTRY_POINT_VERSIONS[0]
  const selected = tanks.find((t) => t.entryPointVersion === version)
  const balance = tank ? (selected?.balanceWei ?? null) : undefined

  async function submit(action: 'deposit' | 'withdraw') {
    setError(null)
    let wei: bigint
    try {
      wei = parseUnits(amount, 18)
      if (wei === 0n) throw new Error('enter more than 0')
    } catch (err) {
      setError(`Amount: ${errorMessage(err)}`)
      return
    }
    try {
      await change(apiKey, action, wei, version)
    } catch (err) {
      setError(errorMessage(err))
    }
  }

  const shown = (value: unknown) =>
    state?.notAvailable ? '—' : toBigInt(value) !== null ? formatEth(value) : state?.loading ? '…' : '—'
  const id = tank?.paymasterId ?? paymasterId ?? null
  return (
    <Section title="Gas tank" testId="gas-tank" actions={state?.loading ? <Spinner /> : null}>
      <p className="hint" data-testid="gas-tank-hint">
        Each EntryPoint version has its own tank under the same paymasterId: an operation is paid from its
        version's tank, and is not sponsored when that tank is too low.
      </p>
      <div className="kv-grid">
        <Kv label="paymasterId">
          <span>
            {id ? (
              <Hex value={id} copy />
            ) : (
              <span className="muted" data-testid="gas-tank-pending">
                pending: created and funded as soon as the chain answers
              </span>
            )}
          </span>
        </Kv>
        <Kv label={`Balance (v${version})`}>
          <span className="big" data-testid="gas-tank-balance">
            {shown(balance)}
          </span>
        </Kv>
      </div>
      {tanks.length > 0 ? (
        <table className="table" data-testid="gas-tanks">
          <thead>
            <tr>
              <th>EntryPoint</th>
              <th>Verifying paymaster</th>
              <th>Balance</th>
            </tr>
          </thead>
          <tbody>
            {tanks.map((t) => (
              <tr
                key={t.entryPointVersion}
                data-testid={`gas-tank-row-${t.entryPointVersion}`}
                data-selected={t.entryPointVersion === version}
              >
                <td>
                  <Badge tone={t.entryPointVersion === version ? 'info' : 'neutral'}>
                    v{t.entryPointVersion}
                  </Badge>
                </td>
                <td>
                  <Hex
                    value={t.verifyingPaymaster}
                    copy
                    testId={`gas-tank-paymaster-${t.entryPointVersion}`}
                  />
                </td>
                <td data-testid={`gas-tank-balance-${t.entryPointVersion}`}>{shown(t.balanceWei)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {state?.notAvailable ? (
        <NotAvailable
          what="Gas tank balance, deposit and withdraw"
          endpoint="GET|POST /console/api/dapps/:apiKey/gas-tank"
        />
      ) : (
        <>
          <ErrorBanner message={state?.error} onRetry={() => void load(apiKey)} />
          <div className="form-row">
            <label className="field">
              <span>Tank</span>
              <select
                data-testid="gas-tank-version"
                value={version}
                onChange={(e) => setVersion(ENTRY_POINT_VERSIONS.find((v) => v === e.target.value) ?? null)}
              >
                {ENTRY_POINT_VERSIONS.map((v) => (
                  <option key={v} value={v}>
                    EntryPoint v{v}
                  </option>
                ))}
              </select>
            </label>
            <label className="field">
              <span>Amount (ETH)</span>
              <input
                data-testid="gas-tank-amount"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                inputMode="decimal"
              />
            </label>
            <ActionButton
              label={`Deposit to v${version}`}
              busyLabel="Depositing…"
              busy={pending === 'deposit'}
              disabled={!!pending}
              testId="gas-tank-deposit"
              onClick={() => void submit('deposit')}
            />
            <ActionButton
              label={`Withdraw from v${version}`}
              busyLabel="Withdrawing…"
              busy={pending === 'withdraw'}
              disabled={!!pending}
              testId="gas-tank-withdraw"
              primary={false}
              onClick={() => void submit('withdraw')}
            />
            {pending ? <Spinner label="waiting for the transaction…" /> : null}
          </div>
        </>
      )}
      <ErrorBanner message={error} testId="gas-tank-error" />
    </Section>
  )
}
