import type { FastifyRequest } from 'fastify'
import type { Dapp } from '../../../shared/api/dapps'
import { NotFoundError, UnauthorizedError } from '../errors'
import { findAccountByAuthToken } from '../store/accounts.repo'
import { findDappByApiKey } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import type { Account } from '../store/schema'

/** The spec's 401 texts (section 7): each route says which one it uses. */
export const AUTH_AND_API_KEY_REQUIRED = 'Auth token and API key is required in the headers'
export const AUTH_TOKEN_REQUIRED = 'Auth token is required in the headers'
export const INVALID_AUTH_TOKEN = 'Invalid auth token'
/** An apiKey no dApp of the account holds (spec 4.4/4.5/4.3: the create and read routes' wording). */
export const UNKNOWN_API_KEY = 'Paymaster not found for this apiKey'

export type AuthRule = {
  /** Whether the route is dApp-scoped and needs the `apiKey` header. */
  apiKey: boolean
  /** The 401 message when a required header is missing. */
  missingMessage: string
  /** The 404 message when the apiKey is unknown or belongs to another account. */
  unknownApiKeyMessage?: string
}

export type Authenticated = { account: Account; dapp: Dapp | undefined }

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()]
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined || first.trim() === '' ? undefined : first.trim()
}

/** Checks `authToken` (and `apiKey` where the rule asks) exactly as spec section 5 says. */
export function authenticate(store: Store, request: FastifyRequest, rule: AuthRule): Authenticated {
  const authToken = header(request, 'authToken')
  const apiKey = header(request, 'apiKey')
  if (!authToken || (rule.apiKey && !apiKey)) throw new UnauthorizedError(rule.missingMessage)
  const account = requireAccount(store, authToken)
  if (!rule.apiKey || !apiKey) return { account, dapp: undefined }
  const dapp = findDappByApiKey(store, apiKey, account.id)
  if (!dapp) throw new NotFoundError(rule.unknownApiKeyMessage ?? UNKNOWN_API_KEY)
  return { account, dapp }
}

/**
 * For routes a browser opens without custom headers (EventSource): the `authToken` header, else the
 * `authToken` query parameter, checked exactly as the header is (trimmed, blank is missing, the same 401s).
 */
export function authenticateHeaderOrQuery(
  store: Store,
  request: FastifyRequest,
  missingMessage: string,
): Account {
  const authToken = header(request, 'authToken') ?? queryParameter(request, 'authToken')
  if (!authToken) throw new UnauthorizedError(missingMessage)
  return requireAccount(store, authToken)
}

function queryParameter(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name]
  const first = Array.isArray(value) ? value[0] : value
  return typeof first !== 'string' || first.trim() === '' ? undefined : first.trim()
}

function requireAccount(store: Store, authToken: string): Account {
  const account = findAccountByAuthToken(store, authToken)
  if (!account) throw new UnauthorizedError(INVALID_AUTH_TOKEN)
  return account
}

/** For dApp-scoped routes: the dApp is guaranteed after `authenticate` with `apiKey: true`. */
export function authenticateDapp(
  store: Store,
  request: FastifyRequest,
  rule: AuthRule,
): Authenticated & { dapp: Dapp } {
  const auth = authenticate(store, request, { ...rule, apiKey: true })
  return auth as Authenticated & { dapp: Dapp }
}
