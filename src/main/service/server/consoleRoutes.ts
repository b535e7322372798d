import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import { UnauthorizedError } from '../errors'
import type { ConsoleSession } from './consoleSession'

export type ConsoleRoutesOptions = {
  /** Folder with the built console (index.html + assets); may not exist in a dev checkout. */
  consoleDir: string
  getServiceInfo: () => ServiceInfo
  session: ConsoleSession
}

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

const LoginBody = z.object({ token: z.string().min(1).max(512) })

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

  app.post('/console/api/login', async (request, reply) => {
    const body = LoginBody.safeParse(request.body)
    const account = body.success ? session.signIn(body.data.token.trim()) : undefined
    if (!account)
      throw new UnauthorizedError(
        'Invalid login token: use the token of the login URL Opstation printed at start, or the auth token',
      )
    session.startSession(reply)
    return { authToken: account.authToken, accountId: account.id }
  })
  app.get('/console/api/session', async (request) => {
    const account = session.requireSignedInAccount(request)
    return { authToken: account.authToken, accountId: account.id }
  })
  app.get('/console/api/status', async (request) => {
    session.requireSignedInAccount(request)
    return options.getServiceInfo()
  })

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
