import { existsSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import type { Store } from '../store/openStore'

export type ConsoleRoutesOptions = {
  store: Store
  /** Folder with the built console (index.html + assets); may not exist in a dev checkout. */
  consoleDir: string
  getServiceInfo: () => ServiceInfo
}

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
 * same-origin only: the Host check and the Origin check in buildServer keep other sites out.
 */
export async function registerConsoleRoutes(
  app: FastifyInstance,
  options: ConsoleRoutesOptions,
): Promise<void> {
  const { consoleDir, store } = options
  const built = existsSync(path.join(consoleDir, 'index.html'))

  app.get('/console/api/session', async () => {
    const account = store.data.accounts[0]
    return { authToken: account?.authToken ?? null, accountId: account?.id ?? null }
  })
  app.get('/console/api/status', async () => options.getServiceInfo())

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
