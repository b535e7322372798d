import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { ApplySetupResultSchema } from '../../../shared/api/setup'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { withDoc } from '../docs/routeDoc'
import { sendOk } from '../server/restEnvelope'
import type { SetupManager } from '../setup/createSetupManager'
import { parseSetup, SETUP_LABEL } from '../setup/readSetup'
import { setupFileSchema } from '../setup/setupFileSchema'
import type { Store } from '../store/openStore'
import { authenticateConsole } from './consoleDapp'

const SETUP_FILE_DESCRIPTION =
  'A setup file (its JSON Schema: setup.schema.json in the package, docs/setup.schema.json in the repository)'

/**
 * The service's setup in the setup file's format: `GET /console/api/setup` exports it, `PUT` with a setup file as
 * the body applies it (by name and key: applying it twice changes nothing) and answers what changed. A file that does
 * not parse is a 400 naming the field (`setup: dapps[0].name must not be empty`).
 */
export async function registerSetupRoutes(
  app: FastifyInstance,
  options: { store: Store; setups: SetupManager },
): Promise<void> {
  const { store, setups } = options
  app.get(
    '/console/api/setup',
    withDoc({
      tag: 'Console: settings',
      summary:
        'Export the setup: dApps, contracts, webhooks, policies, gas tanks, token prices, funded accounts',
      description:
        "In the setup file's format (apply it with PUT, `opstation serve --setup` or `startOpstation({ setup })`). " +
        'Gas tanks and accounts are left out without a chain.',
      auth: 'authToken',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      data: z.record(z.string(), z.unknown()).meta({ description: SETUP_FILE_DESCRIPTION }),
    }),
    async (request, reply) => {
      const account = authenticateConsole(store, request)
      return sendOk(reply, 'Setup exported', await setups.exportSetup({ accountId: account.id }))
    },
  )
  app.put(
    '/console/api/setup',
    withDoc({
      tag: 'Console: settings',
      summary: 'Apply a setup file (by name and key: applying it twice changes nothing)',
      description:
        'dApps by name, contracts by address, webhooks by URL, token prices and accounts by address; what the file ' +
        'does not name is left alone. A file that does not parse, or that the service refuses (an apiKey of another ' +
        'dApp), is a 400 naming the field, e.g. `setup: dapps[0].contracts[1].address must be a 0x address …`.',
      auth: 'authToken',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      body: setupFileSchema.meta({ description: SETUP_FILE_DESCRIPTION }),
      data: ApplySetupResultSchema,
      errors: { 503: 'The chain is not answering (gas tanks and accounts live on chain)' },
    }),
    async (request, reply) => {
      const account = authenticateConsole(store, request)
      const setup = parseSetup(request.body, SETUP_LABEL)
      const result = await setups.applySetup({ setup, label: SETUP_LABEL }, { accountId: account.id })
      return sendOk(
        reply,
        result.changes.length > 0 ? 'Setup applied' : 'Setup already applied: nothing changed',
        result,
      )
    },
  )
}
