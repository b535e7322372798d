import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { UnauthorizedError } from '../errors'
import type { Store } from '../store/openStore'
import type { Account } from '../store/schema'

/** The console's session cookie: HttpOnly, SameSite=Strict, so no script and no other site can use it. */
export const SESSION_COOKIE = 'opstation_console'

export const SIGN_IN_REQUIRED =
  'Sign in first: open the console with the login URL Opstation printed at start (…/console/?token=…)'

/**
 * How the console proves itself (as Jupyter does): the login URL printed at start carries a token, new at every
 * start; a browser that opens it (or posts it, or the account's auth token, to /console/api/login) gets a session
 * cookie, and only a request with that cookie (or the authToken header) is handed the auth token. The cookie is an
 * HMAC of the account's auth token, so it survives restarts and every session ends when the token is regenerated.
 */
export type ConsoleSession = {
  /** The secret of the login URL (`/console/?token=…`). */
  loginToken: string
  /** The console's account when `candidate` is the login token or its auth token; else undefined. */
  signIn: (candidate: string) => Account | undefined
  /** Sets the session cookie on a response. */
  startSession: (reply: FastifyReply) => void
  /** The console's account if the request carries a valid session cookie or authToken header; else undefined. */
  findSignedInAccount: (request: FastifyRequest) => Account | undefined
  /** Like findSignedInAccount, but throws the 401 that tells the user how to sign in. */
  requireSignedInAccount: (request: FastifyRequest) => Account
}

export function createConsoleSession(store: Store): ConsoleSession {
  const loginToken = randomBytes(24).toString('base64url')
  const consoleAccount = () => store.data.accounts[0]
  const cookieValueFor = (account: Account) =>
    createHmac('sha256', account.authToken).update('opstation console session v1').digest('base64url')

  const findSignedInAccount = (request: FastifyRequest): Account | undefined => {
    const account = consoleAccount()
    if (!account) return undefined
    const header = request.headers.authtoken
    const token = Array.isArray(header) ? header[0] : header
    if (token !== undefined && equalSecrets(token.trim(), account.authToken)) return account
    const cookie = readCookie(request.headers.cookie, SESSION_COOKIE)
    return cookie !== undefined && equalSecrets(cookie, cookieValueFor(account)) ? account : undefined
  }

  return {
    loginToken,
    signIn: (candidate) => {
      const account = consoleAccount()
      if (!account) return undefined
      return equalSecrets(candidate, loginToken) || equalSecrets(candidate, account.authToken)
        ? account
        : undefined
    },
    startSession: (reply) => {
      const account = consoleAccount()
      if (!account) return
      reply.header(
        'Set-Cookie',
        `${SESSION_COOKIE}=${cookieValueFor(account)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000`,
      )
    },
    findSignedInAccount,
    requireSignedInAccount: (request) => {
      const account = findSignedInAccount(request)
      if (!account) throw new UnauthorizedError(SIGN_IN_REQUIRED)
      return account
    },
  }
}

/** Compares two secrets in time independent of where they differ. */
export function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/** The value of cookie `name` in a Cookie header, if present. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return undefined
}
