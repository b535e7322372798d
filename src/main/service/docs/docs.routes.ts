import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import type { ApiDocuments } from './createApiDocuments'
import { withDoc } from './routeDoc'

/** The reference page takes nothing from elsewhere: no script, its one style sheet inline. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'"

const OpenApiSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({}),
  paths: z.looseObject({}),
})
const OpenRpcSchema = z.looseObject({
  openrpc: z.string(),
  info: z.looseObject({}),
  methods: z.array(z.unknown()),
})

/**
 * `/docs/` (the reference page), `/docs/openapi.json` and `/docs/openrpc.json`: open, like /health (they hold no
 * secret), behind the same Host and Origin checks as every route.
 */
export async function registerDocsRoutes(
  app: FastifyInstance,
  options: { getDocuments: () => ApiDocuments },
): Promise<void> {
  const headers = (reply: FastifyReply) =>
    reply.header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-cache')

  app.get(
    '/docs/',
    withDoc({
      tag: 'Service',
      summary: 'This reference as a page (plain HTML, works offline)',
      auth: 'none',
      response: { description: 'The reference page', contentType: 'text/html' },
    }),
    async (request, reply) => {
      // The page links the documents relatively: from `/docs` (the router takes it too) they would miss. The
      // redirect carries the REST envelope, as every other answer that is no page or document does.
      if (!request.url.split('?')[0]!.endsWith('/'))
        return reply.code(308).header('location', '/docs/').send({ statusCode: 308, message: 'See /docs/' })
      return headers(reply)
        .header('Content-Security-Policy', PAGE_CSP)
        .header('X-Frame-Options', 'DENY')
        .type('text/html; charset=utf-8')
        .send(options.getDocuments().html)
    },
  )
  app.get(
    '/docs/openapi.json',
    withDoc({
      tag: 'Service',
      summary: 'This document: OpenAPI 3.1 of the REST and console API',
      auth: 'none',
      response: { description: 'The OpenAPI document', schema: OpenApiSchema },
    }),
    async (_request, reply) => headers(reply).type('application/json').send(options.getDocuments().openapi),
  )
  app.get(
    '/docs/openrpc.json',
    withDoc({
      tag: 'Service',
      summary: 'OpenRPC document of the bundler and paymaster JSON-RPC methods',
      auth: 'none',
      response: { description: 'The OpenRPC document', schema: OpenRpcSchema },
    }),
    async (_request, reply) => headers(reply).type('application/json').send(options.getDocuments().openrpc),
  )
}
