import { ContractsPanel } from '../components/dapp/ContractsPanel'
import { DappStatusPanel } from '../components/dapp/DappStatusPanel'
import { GasTankPanel } from '../components/dapp/GasTankPanel'
import { PoliciesPanel } from '../components/dapp/PoliciesPanel'
import { SponsorshipChart } from '../components/dapp/SponsorshipChart'
import { WebhooksPanel } from '../components/dapp/WebhooksPanel'
import { ErrorBanner, InactiveBadge, Spinner } from '../components/Feedback'
import { PageHeader, Section } from '../components/Layout'
import { Link } from '../components/Link'
import { CopyField } from '../components/Mono'
import { Tabs } from '../components/Tabs'
import { chainUrlsOf, paymasterUrlOf } from '../features/chains/chainList'
import { usePaymaster, usePaymastersStore } from '../stores/usePaymastersStore'
import { useServiceStore } from '../stores/useServiceStore'

export function PaymasterPage({ apiKey, tab }: { apiKey: string; tab: string }) {
  const paymaster = usePaymaster(apiKey)
  const list = usePaymastersStore((s) => s.list)
  const status = useServiceStore((s) => s.status)
  if (!paymaster) {
    if (list.loading || !list.data)
      return (
        <div className="page">
          {list.error ? <ErrorBanner message={list.error} /> : <Spinner label="Loading…" />}
        </div>
      )
    return (
      <div className="page">
        <ErrorBanner title="Not found" message={`No dApp with apiKey ${apiKey}.`} />
        <Link to="paymasters">Back to the list</Link>
      </div>
    )
  }
  const base = `paymasters/${encodeURIComponent(apiKey)}`
  return (
    <div className="page" data-testid="paymaster-page">
      <PageHeader
        title={paymaster.name}
        subtitle={
          <>
            <Link to="paymasters">Paymasters</Link> / chain {paymaster.chainId} · version{' '}
            {paymaster.version ?? '—'} · {paymaster.type ?? 'HYBRID'}
            <InactiveBadge active={paymaster.active} />
          </>
        }
      />
      <Tabs
        active={tab}
        tabs={[
          { id: 'overview', label: 'Overview', to: base },
          { id: 'policies', label: 'Policies', to: `${base}/policies` },
          { id: 'contracts', label: 'Smart contracts', to: `${base}/contracts` },
          { id: 'webhooks', label: 'Webhooks', to: `${base}/webhooks` },
        ]}
      />
      {tab === 'overview' ? (
        <>
          <DappStatusPanel apiKey={apiKey} active={paymaster.active !== false} />
          <Section title="Keys and URL" testId="paymaster-keys">
            <CopyField
              label="apiKey"
              value={paymaster.apiKey}
              testId="paymaster-apikey"
              hint="apiKey header of the smart-contract and webhook REST calls"
            />
            <CopyField
              label="Paymaster URL"
              value={paymasterUrlOf(status, paymaster)}
              testId="paymaster-url"
              hint="paymasterUrl for the Biconomy SDK"
            />
            <CopyField
              label="Bundler URL"
              value={chainUrlsOf(status, paymaster.chainId).bundlerUrl}
              testId="paymaster-bundler-url"
            />
          </Section>
          <GasTankPanel apiKey={apiKey} paymasterId={paymaster.paymasterId} />
          <SponsorshipChart apiKey={apiKey} />
        </>
      ) : null}
      {tab === 'policies' ? <PoliciesPanel apiKey={apiKey} /> : null}
      {tab === 'contracts' ? <ContractsPanel apiKey={apiKey} /> : null}
      {tab === 'webhooks' ? <WebhooksPanel apiKey={apiKey} /> : null}
    </div>
  )
}
