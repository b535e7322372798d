import type { DappPolicies } from '../../../shared/api/dapps'
import { NotFoundError } from '../errors'
import type { Store } from './openStore'

/** Replaces a dApp's policies (limits, validity window, premium). */
export async function setDappPolicies(
  store: Store,
  dappId: string,
  policies: DappPolicies,
): Promise<DappPolicies> {
  return store.update((doc) => {
    const dapp = doc.dapps.find((d) => d.id === dappId)
    if (!dapp) throw new NotFoundError('Paymaster not found')
    dapp.policies = policies
    return dapp.policies
  })
}
