import { useState } from 'react'
import { SANDBOX_ACCOUNT_LABELS, type SandboxAccount } from '../../../../shared/sandbox'
import { Empty, ErrorBanner, NotAvailable, Spinner } from '../../components/Feedback'
import { Kv } from '../../components/Kv'
import { Section } from '../../components/Layout'
import { Hex } from '../../components/Mono'
import { formatEth, formatUnits } from '../../lib/format'
import { CreateAccountButtons } from './CreateAccountButtons'
import { SafeModeRefusal } from './SafeModeRefusal'
import { useChainTokens } from './useChainTokens'
import { useSandboxStore } from './useSandboxStore'

/** The sandbox's smart accounts: create one per type, pick one, see its balances and fund it from the faucet. */
export function AccountPanel() {
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
                      : account.type === 'SIMPLE_7702_V08' || account.type === 'SIMPLE_7702_V09'
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
