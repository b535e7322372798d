import type { FastifyInstance } from 'fastify'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import type { ConsoleSession } from '../server/consoleSession'
import type { SetupManager } from '../setup/createSetupManager'
import type { Store } from '../store/openStore'
import { registerAccountRoutes } from './account.routes'
import type { ConsoleChains } from './consoleChains'
import { registerDappPolicyRoutes } from './dappPolicies.routes'
import { registerDappRoutes } from './dapps.routes'
import { registerEventStreamRoutes } from './events.routes'
import { registerGasTankRoutes } from './gasTank.routes'
import { registerSandboxRoutes } from './sandbox.routes'
import { registerSettingsRoutes, type SettingsRoutesOptions } from './settings.routes'
import { registerSetupRoutes } from './setup.routes'
import { registerSponsorshipRoutes } from './sponsorships.routes'
import { registerTimeRoutes } from './time.routes'
import { registerTokenPriceRoutes } from './tokenPrices.routes'
import { registerUserOperationRoutes } from './userOperations.routes'
import { registerWebhookCallRoutes } from './webhookCalls.routes'

export type ConsoleRoutesParameters = {
  store: Store
  session: ConsoleSession
  events: EventBus
  log: Logger
  dataDir: string
  /** The chains run (each route acts on the chain its `?chainId=` names, the first by default). */
  chains: ConsoleChains
  getWebhookTimeoutMs: () => number
  setups: SetupManager
  runtime: SettingsRoutesOptions['runtime']
  runningRpcUrl: string | null
  runningChains: SettingsRoutesOptions['runningChains']
}

/** Every console API route (`/console/api/*`), registered in one place: the composition root calls it once. */
export async function registerConsoleRoutes(
  app: FastifyInstance,
  params: ConsoleRoutesParameters,
): Promise<void> {
  const { store, session, events, log, dataDir, chains } = params
  await registerAccountRoutes(app, { store, session })
  await registerDappRoutes(app, { store })
  await registerEventStreamRoutes(app, { store, events, session })
  await registerSponsorshipRoutes(app, { store })
  await registerWebhookCallRoutes(app, {
    store,
    events,
    log,
    getWebhookTimeoutMs: params.getWebhookTimeoutMs,
  })
  await registerDappPolicyRoutes(app, { store })
  await registerGasTankRoutes(app, { store, chains })
  await registerTokenPriceRoutes(app, { store, getChain: () => chains.first?.chain })
  await registerSandboxRoutes(app, { store, dataDir, chains })
  await registerUserOperationRoutes(app, { store, chains })
  await registerSetupRoutes(app, { store, setups: params.setups })
  await registerTimeRoutes(app, { store, chains })
  await registerSettingsRoutes(app, {
    store,
    events,
    runtime: params.runtime,
    runningRpcUrl: params.runningRpcUrl,
    runningChains: params.runningChains,
    dataDir,
  })
}
