import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
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
  const built = existsSync(path.join(consoleDir, 'index.html'))

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

  if (built) {
    await app.register(fastifyStatic, {
      root: consoleDir,
      prefix: '/console/',
      index: ['index.html'],
      wildcard: false,
      setHeaders: (res, filePath) => {
        if (filePath.endsWith('.html')) {
          res.setHeader('Content-Security-Policy', CSP)
          res.setHeader('Cache-Control', 'no-cache')
        }
        res.setHeader('X-Frame-Options', 'DENY')
        res.setHeader('X-Content-Type-Options', 'nosniff')
      },
    })
    // Client-side routes (/console/activity …) load the app shell.
    app.get('/console/*', async (request, reply) => {
      if (request.url.startsWith('/console/api/') || path.extname(request.url.split('?')[0] ?? '') !== '') {
        return reply.code(404).send({ statusCode: 404, message: `Not found: ${request.url}` })
      }
      reply.header('Content-Security-Policy', CSP)
      return reply.sendFile('index.html')
    })
  } else {
    app.get('/console/', async (_request, reply) =>
      reply
        .code(503)
        .type('text/plain')
        .send(
          'The console is not built. Run `npm run build:renderer` (or `npm run build`) and reload this page.',
        ),
    )
  }
}
