import type { Logger } from '../log/logger'
import type { Store } from '../store/openStore'
import { createConcurrencyLimit } from '../util/createConcurrencyLimit'
import { type ApplySetupReturnType, applySetup } from './applySetup'
import { type ExportedSetup, exportSetup } from './exportSetup'
import { openFundedAccounts } from './fundedAccounts'
import type { ReadSetupReturnType } from './readSetup'
import type { SetupChains } from './setupChains'

export type CreateSetupManagerParameters = {
  store: Store
  /** The chains the service runs (the first is a dApp's or an account's when the setup names none). */
  chains: SetupChains
  dataDir: string
  log: Logger
}

export type SetupManager = {
  /** Applies a read setup for the account (default: the service's first account). */
  applySetup: (setup: ReadSetupReturnType, options?: { accountId?: string }) => Promise<ApplySetupReturnType>
  exportSetup: (options?: { accountId?: string }) => Promise<ExportedSetup>
}

/**
 * The service's setups: applied one at a time (the one at start and console imports never interleave), and exported
 * once no apply is under way.
 */
export async function createSetupManager(params: CreateSetupManagerParameters): Promise<SetupManager> {
  const fundedAccounts = await openFundedAccounts(params.dataDir)
  const oneAtATime = createConcurrencyLimit(1)
  const deps = (accountId: string | undefined) => ({
    store: params.store,
    chains: params.chains,
    accountId: accountId ?? params.store.data.accounts[0]?.id ?? '',
    fundedAccounts,
    log: params.log,
  })
  return {
    applySetup: (setup, options = {}) => oneAtATime(() => applySetup(deps(options.accountId), setup)),
    exportSetup: (options = {}) => oneAtATime(() => exportSetup(deps(options.accountId))),
  }
}
