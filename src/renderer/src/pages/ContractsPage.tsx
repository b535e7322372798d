import { ContractsPanel } from '../components/dapp/ContractsPanel'
import { DappScopedPage } from './DappScoped'

export function ContractsPage() {
  return (
    <DappScopedPage
      title="Smart contracts"
      subtitle="The contracts a dApp sponsors calls to, and which of their methods."
      testId="contracts-page"
    >
      {(apiKey) => <ContractsPanel key={apiKey} apiKey={apiKey} />}
    </DappScopedPage>
  )
}
