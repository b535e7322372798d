import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { jsonObject, parseInput } from '../dashboard/fields'
import { toPaymasterView } from '../dashboard/paymasters.routes'
import { sendOk } from '../server/restEnvelope'
import { setDappActive } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { findConsoleDapp } from './consoleDapp'

const PatchBody = jsonObject({ active: z.boolean({ error: 'active must be a boolean value' }) })

/**
 * `PATCH /console/api/dapps/:apiKey` `{active}`: activates or deactivates a dApp. A deactivated dApp keeps its
 * contracts, webhooks, policies and gas tank, but every sponsorship decision fails at the dApp step.
 */
export async function registerDappRoutes(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const { store } = options
  app.patch<{ Params: { apiKey: string } }>('/console/api/dapps/:apiKey', async (request, reply) => {
    const dapp = findConsoleDapp(store, request)
    const body = parseInput(PatchBody, request.body)
    const updated = await setDappActive(store, dapp.id, body.active)
    return sendOk(
      reply,
      body.active ? 'Paymaster activated' : 'Paymaster deactivated',
      toPaymasterView(updated),
    )
  })
}
