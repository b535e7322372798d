import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Dapp } from '../../../shared/api/dapps'
import { AUTH_TOKEN_REQUIRED, authenticate } from '../dashboard/auth'
import { NotFoundError } from '../errors'
import { findDappByApiKey } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import type { Account } from '../store/schema'

/** The `:apiKey` of a console route, for the OpenAPI document. */
export const ConsoleDappParams = z.object({ apiKey: z.string().meta({ description: "The dApp's apiKey" }) })

export const DAPP_NOT_FOUND = 'Paymaster not found for this apiKey'

/** Console routes authenticate with the `authToken` header; `:apiKey` in the path names a dApp of that account. */
export function authenticateConsole(store: Store, request: FastifyRequest): Account {
  return authenticate(store, request, { apiKey: false, missingMessage: AUTH_TOKEN_REQUIRED }).account
}

export function findConsoleDapp(store: Store, request: FastifyRequest<{ Params: { apiKey: string } }>): Dapp {
  const account = authenticateConsole(store, request)
  const dapp = findDappByApiKey(store, request.params.apiKey, account.id)
  if (!dapp) throw new NotFoundError(DAPP_NOT_FOUND)
  return dapp
}
