import { WebhooksPanel } from '../components/dapp/WebhooksPanel'
import { DappScopedPage } from './DappScoped'

export function WebhooksPage() {
  return (
    <DappScopedPage
      title="Webhooks"
      subtitle="Your own yes/no for each sponsorship request, and every call the paymaster made."
      testId="webhooks-page"
    >
      {(apiKey) => <WebhooksPanel key={apiKey} apiKey={apiKey} />}
    </DappScopedPage>
  )
}
