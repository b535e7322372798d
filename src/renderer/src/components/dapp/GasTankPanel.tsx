import { useEffect, useState } from 'react'
import { errorMessage } from '../../api/http'
import { formatEth, parseUnits, toBigInt } from '../../lib/format'
import { useGasTankStore } from '../../stores/useGasTankStore'
import { ActionButton } from '../ActionButton'
import { ErrorBanner, NotAvailable, Spinner } from '../Feedback'
import { Kv } from '../Kv'
import { Section } from '../Layout'
import { Hex } from '../Mono'

/** The dApp's gas tank on the verifying paymaster: balance, deposit and withdraw on the local chain. */
export function GasTankPanel({ apiKey, paymasterId }: { apiKey: string; paymasterId?: string | null }) {
  const state = useGasTankStore((s) => s.byApiKey[apiKey])
  const pending = useGasTankStore((s) => s.pending[apiKey])
  const load = useGasTankStore((s) => s.load)
  const change = useGasTankStore((s) => s.change)
  const [amount, setAmount] = useState('1')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    void load(apiKey)
  }, [apiKey, load])

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
      await change(apiKey, action, wei)
    } catch (err) {
      setError(errorMessage(err))
    }
  }

  const tank = state?.data
  const balance = tank ? (tank.balanceWei ?? (tank as { balance?: unknown }).balance) : undefined
  const id = (tank?.paymasterId as string | undefined) ?? paymasterId ?? null
  return (
    <Section title="Gas tank" testId="gas-tank" actions={state?.loading ? <Spinner /> : null}>
      <p className="hint">
        Sponsored operations are paid from this deposit on the verifying paymaster (keyed by the dApp's
        paymasterId). When it runs dry, sponsored operations fail with AA31.
      </p>
      <div className="kv-grid">
        <Kv label="paymasterId">
          <span>
            {id ? (
              <Hex value={id} copy />
            ) : (
              <span className="muted">not created yet (needs a running chain)</span>
            )}
          </span>
        </Kv>
        <Kv label="Balance">
          <span className="big" data-testid="gas-tank-balance">
            {state?.notAvailable
              ? '—'
              : toBigInt(balance) !== null
                ? formatEth(balance)
                : state?.loading
                  ? '…'
                  : '—'}
          </span>
        </Kv>
      </div>
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
              <span>Amount (ETH)</span>
              <input
                data-testid="gas-tank-amount"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                inputMode="decimal"
              />
            </label>
            <ActionButton
              label="Deposit"
              busyLabel="Depositing…"
              busy={pending === 'deposit'}
              disabled={!!pending}
              testId="gas-tank-deposit"
              onClick={() => void submit('deposit')}
            />
            <ActionButton
              label="Withdraw"
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
