import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { type Session, SessionSchema } from '../../../shared/api/session'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import { type Covers, type RouteDoc, withDoc } from '../docs/routeDoc'
import { UnauthorizedError } from '../errors'
import { type ConsoleSession, SIGN_IN_REQUIRED } from './consoleSession'

export type ConsoleRoutesOptions = {
  /** Folder with the built console (index.html + assets); may not exist in a dev checkout. */
  consoleDir: string
  getServiceInfo: () => ServiceInfo
  session: ConsoleSession
}

const INVALID_LOGIN =
  'Invalid login token: use the token of the login URL Opstation printed at start, or the auth token'

/** What the console's build holds besides its client-side routes. */
const STATIC_EXTENSIONS = new Set([
  '.html',
  '.js',
  '.css',
  '.map',
  '.svg',
  '.png',
  '.ico',
  '.json',
  '.txt',
  '.woff2',
])

const LoginBody = z.object({
  token: z
    .string()
    .min(1)
    .max(512)
    .meta({ description: 'The token of the login URL printed at start, or the auth token' }),
})

const ChainStatusSchema = z.object({
  kind: z.enum(['embedded', 'external', 'none']),
  fork: z
    .object({ url: z.string(), block: z.number().int() })
    .nullable()
    .optional()
    .meta({ description: 'The chain the embedded anvil forks (--fork-url), at this block' }),
  state: z.enum([
    'starting',
    'ready',
    'restarting',
    'unreachable',
    'recovering',
    'wrong-chain',
    'stalled',
    'none',
  ]),
  addresses: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'The contracts the chain holds (EntryPoints, factories, paymasters, tokens)' }),
  missing: z.array(z.string()).meta({ description: 'Contracts the chain lacks' }),
  message: z.string().optional().meta({ description: 'What happened last' }),
  since: z.string().optional().meta({ description: 'When the state began (ISO 8601)' }),
  checkedAt: z
    .string()
    .optional()
    .meta({ description: 'When the service last looked at the node (ISO 8601; it looks once a second)' }),
})

/** What the service says about itself (shared/serviceInfo.ts): the ready line and `/console/api/status`. */
const ServiceInfoSchema = z.object({
  version: z.string(),
  dashboardUrl: z.string(),
  bundlerUrl: z.string(),
  paymasterUrlTemplate: z
    .string()
    .meta({ description: "The paymaster URL with `{apiKey}` for the dApp's apiKey" }),
  consoleUrl: z.string(),
  consoleLoginUrl: z.string().meta({ description: "The console URL with this start's login token" }),
  chainId: z
    .number()
    .int()
    .meta({ description: "The first chain's id (the chain of the single-chain URLs)" }),
  chains: z
    .array(
      z.object({
        chainId: z.number().int(),
        kind: z.enum(['embedded', 'external']),
        state: ChainStatusSchema.shape.state,
        missing: ChainStatusSchema.shape.missing,
        message: ChainStatusSchema.shape.message,
        chainTimeOffsetSeconds: z
          .number()
          .int()
          .meta({ description: "This chain's time minus wall time (seconds), by its chain clock" }),
        rpcUrl: z.string().meta({ description: 'The chain RPC: `/rpc/{chainId}` of an embedded chain' }),
        bundlerUrl: z.string(),
        paymasterUrlTemplate: z.string(),
      }),
    )
    .meta({
      description: 'Every chain the service runs, the first one first, with its URLs (empty without a chain)',
    }),
  rpcUrl: z.string().nullable().meta({ description: "The chain's JSON-RPC URL, when a chain runs" }),
  dataDir: z.string(),
  chain: ChainStatusSchema,
  chainTimeOffsetSeconds: z.number().int().nullable().meta({
    description: "Chain time minus wall time (seconds) by the service's chain clock; null without a chain",
  }),
  storeSetAside: z
    .object({ corruptCopy: z.string(), reason: z.string(), at: z.string() })
    .nullable()
    .meta({ description: 'The unreadable store file this start set aside (--reset-store)' }),
})
type _CheckedServiceInfo = Covers<typeof ServiceInfoSchema, ServiceInfo>

const DOC = {
  tag: 'Console: sign-in',
  missingCredentialMessage: SIGN_IN_REQUIRED,
} as const satisfies Partial<RouteDoc>

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/**
 * The console at `/console/` (the built renderer) and its own small API. The console API is
 * same-origin only: the Host check and the Origin check in buildServer keep other sites out. Nothing here hands
 * out the auth token or the service's status without a console session (consoleSession.ts): the login URL's
 * `?token=` starts one (then redirects to the same page without it), as does `POST /console/api/login`.
 */
export async function registerConsoleRoutes(
  app: FastifyInstance,
  options: ConsoleRoutesOptions,
): Promise<void> {
  const { consoleDir, session } = options

  // The login URL: a valid token starts a session; the redirect drops it from the address bar and history.
  app.addHook('onRequest', (request, reply, done) => {
    const url = new URL(request.url, 'http://console.invalid')
    const token = url.searchParams.get('token')
    if (request.method !== 'GET' || token === null || url.pathname.startsWith('/console/api/')) return done()
    if (!session.signIn(token)) return done() // the page loads and asks the user to sign in
    session.startSession(reply)
    url.searchParams.delete('token')
    reply.redirect(`${url.pathname}${url.search}`, 303)
  })

  app.post(
    '/console/api/login',
    withDoc({
      ...DOC,
      summary: 'Sign the console in: sets the session cookie and answers the auth token',
      auth: 'none',
      body: LoginBody,
      response: { description: 'Signed in (the answer sets the session cookie)', schema: SessionSchema },
      errors: { 401: `A wrong token ("${INVALID_LOGIN}")` },
    }),
    async (request, reply): Promise<Session> => {
      const body = LoginBody.safeParse(request.body)
      const account = body.success ? session.signIn(body.data.token.trim()) : undefined
      if (!account) throw new UnauthorizedError(INVALID_LOGIN)
      session.startSession(reply)
      return { authToken: account.authToken, accountId: account.id }
    },
  )
  app.get(
    '/console/api/session',
    withDoc({
      ...DOC,
      summary: 'The auth token of a signed-in console',
      auth: 'session',
      response: { description: 'The session', schema: SessionSchema },
    }),
    async (request): Promise<Session> => {
      const account = session.requireSignedInAccount(request)
      return { authToken: account.authToken, accountId: account.id }
    },
  )
  app.get(
    '/console/api/status',
    withDoc({
      ...DOC,
      summary: "The service's URLs, chain status and data folder (what the ready line prints)",
      auth: 'session',
      response: { description: 'The service', schema: ServiceInfoSchema },
    }),
    async (request) => {
      session.requireSignedInAccount(request)
      return options.getServiceInfo()
    },
  )

  // Files are looked up per request, never listed at start: a console built (or rebuilt, with new asset names)
  // while the service runs is served at once. scripts/publishConsole.mjs replaces a build so that index.html and
  // the assets it names are always there together.
  // The folder is named per send, not at registration: @fastify/static would warn at start about a console not built
  // yet (a second line on a one-line start-up error).
  await app.register(fastifyStatic, { serve: false })
  const securityHeaders = (reply: FastifyReply, html: boolean) => {
    if (html) {
      reply.header('Content-Security-Policy', CSP)
      reply.header('Cache-Control', 'no-cache')
    }
    reply.header('X-Frame-Options', 'DENY')
    reply.header('X-Content-Type-Options', 'nosniff')
  }
  const serveConsole = async (request: FastifyRequest, reply: FastifyReply) => {
    const file = readConsolePath(request.url)
    if (file === undefined)
      return reply.code(400).send({ statusCode: 400, message: `Malformed URL: ${request.url}` })
    if (file.startsWith('api/'))
      return reply.code(404).send({ statusCode: 404, message: `Not found: ${request.url}` })
    if (!existsSync(path.join(consoleDir, 'index.html')))
      return reply
        .code(503)
        .type('text/plain')
        .send(
          'The console is not built. Run `npm run build:renderer` (or `npm run build`) and reload this page.',
        )
    // A file (assets/index-<hash>.js, favicon.svg); anything else is a client-side route (/console/activity/…,
    // /console/paymasters/<apiKey with a dot>/policies), however deep: it loads the app shell, whose asset URLs are
    // absolute (/console/assets/…).
    if (file.startsWith('assets/') || STATIC_EXTENSIONS.has(path.extname(file).toLowerCase())) {
      if (
        file.split('/').some((part) => part === '..' || part.startsWith('.')) ||
        !existsSync(path.join(consoleDir, file))
      )
        return reply.code(404).send({ statusCode: 404, message: `Not found: ${request.url}` })
      securityHeaders(reply, file.endsWith('.html'))
      return reply.sendFile(file, consoleDir)
    }
    securityHeaders(reply, true)
    return reply.sendFile('index.html', consoleDir)
  }
  app.get('/console/', serveConsole)
  app.get('/console/*', serveConsole)
}

/** The path under /console/ a request names, decoded; undefined for a malformed percent-encoding. */
function readConsolePath(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url, 'http://console.invalid').pathname).slice('/console/'.length)
  } catch {
    return undefined
  }
}
