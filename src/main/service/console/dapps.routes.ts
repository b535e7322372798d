import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { PaymasterViewSchema } from '../../../shared/api/dapps'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { toPaymasterView } from '../dashboard/paymasters.routes'
import { withDoc } from '../docs/routeDoc'
import { jsonObject, parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import { setDappActive } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { ConsoleDappParams, DAPP_NOT_FOUND, findConsoleDapp } from './consoleDapp'

const PatchBody = jsonObject({ active: z.boolean({ error: 'active must be a boolean value' }) })

/**
 * `PATCH /console/api/dapps/:apiKey` `{active}`: activates or deactivates a dApp. A deactivated dApp keeps its
 * contracts, webhooks, policies and gas tank, but every sponsorship decision fails at the dApp step.
 */
export async function registerDappRoutes(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const { store } = options
  app.patch<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey',
    withDoc({
      tag: 'Console: dApps',
      summary: 'Activate or deactivate a dApp (a deactivated one sponsors nothing)',
      auth: 'authToken',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      params: ConsoleDappParams,
      body: PatchBody,
      data: PaymasterViewSchema,
      errors: { 404: `Unknown apiKey ("${DAPP_NOT_FOUND}")` },
    }),
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      const body = parseInput(PatchBody, request.body)
      const updated = await setDappActive(store, dapp.id, body.active)
      return sendOk(
        reply,
        body.active ? 'Paymaster activated' : 'Paymaster deactivated',
        toPaymasterView(updated),
      )
    },
  )
}
