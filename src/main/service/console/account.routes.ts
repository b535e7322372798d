import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { withDoc } from '../docs/routeDoc'
import type { ConsoleSession } from '../server/consoleSession'
import { sendOk } from '../server/restEnvelope'
import { regenerateAuthToken } from '../store/accounts.repo'
import type { Store } from '../store/openStore'

/** `POST /console/api/account/auth-token`: replaces the account's auth token (the old one stops working). */
export async function registerAccountRoutes(
  app: FastifyInstance,
  options: { store: Store; session?: ConsoleSession },
): Promise<void> {
  app.post(
    '/console/api/account/auth-token',
    withDoc({
      tag: 'Console: settings',
      summary: 'Replace the auth token (the old one and every console session stop working)',
      auth: 'authToken',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      data: z.object({ authToken: z.string().meta({ description: 'The new auth token' }) }),
    }),
    async (request, reply) => {
      const { account } = authenticate(options.store, request, {
        apiKey: false,
        missingMessage: AUTH_TOKEN_REQUIRED,
      })
      const authToken = await regenerateAuthToken(options.store, account.id)
      // Every console session ends with the old token; the console that asked keeps one.
      options.session?.startSession(reply)
      return sendOk(reply, 'Auth token regenerated', { authToken })
    },
  )
}
