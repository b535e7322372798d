import http from 'node:http'
import path from 'node:path'
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify'
import { z } from 'zod'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import { registerPaymasterRoutes } from '../dashboard/paymasters.routes'
import { registerSmartContractRoutes } from '../dashboard/smartContracts.routes'
import { registerWebhookRoutes } from '../dashboard/webhooks.routes'
import { collectRoutes } from '../docs/collectRoutes'
import { createApiDocuments } from '../docs/createApiDocuments'
import { registerDocsRoutes } from '../docs/docs.routes'
import { withDoc } from '../docs/routeDoc'
import type { RpcMethodRegistry } from '../jsonrpc/defineMethod'
import type { Store } from '../store/openStore'
import type { Dapp } from '../store/schema'
import { answerClientError } from './answerClientError'
import { answerChainRpc, type GetRpcChain, registerChainRpcRoutes } from './chainRpcRoutes'
import { registerConsoleRoutes } from './consoleRoutes'
import type { ConsoleSession } from './consoleSession'
import { createHostCheck, isSameOrigin } from './hostGuard'
import { toHttpError } from './restEnvelope'
import { createRpcFastPath } from './rpcFastPath'
import {
  BUNDLER_ROUTE,
  createRpcAnswerer,
  PAYMASTER_ROUTE,
  type RpcRoutesOptions,
  registerRpcRoutes,
} from './rpcRoutes'

export type BuildServerParameters = {
  store: Store
  host: string
  bodyLimit: number
  logger: FastifyBaseLogger
  consoleDir: string
  /** The methods the API documents describe (every chain's URLs serve the same). */
  bundlerMethods: RpcMethodRegistry
  paymasterMethods: RpcMethodRegistry
  /** The chain a bundler or paymaster URL names, with its methods (rpcRoutes.ts). */
  resolveRpcChain: RpcRoutesOptions['resolveChain']
  getSupportedChainIds: () => number[]
  getServiceInfo: () => ServiceInfo
  /** The console's sign-in (consoleSession.ts). */
  session: ConsoleSession
  /** The chain of a chain RPC URL, for the guarded chain RPC at /rpc and /rpc/:chainId (undefined with --no-chain). */
  getChain: GetRpcChain
  /** Gives a new dApp its gas tanks on its chain. */
  provisionDapp?: (dapp: Dapp) => Promise<void>
  /** Extra routes (console API of later features). */
  plugins?: ((app: FastifyInstance) => Promise<void>)[]
}

/** Fastify's own default, which its keepAliveTimeout option no longer applies with a serverFactory. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000

/**
 * JSON-RPC endpoints (bundler, paymaster, the chain): open to other origins under their own per-method rules. Any
 * chain id segment, as the routes take it (a wrong one is answered in JSON-RPC: "Chain ID … is not served here").
 */
const RPC_PATH = /^\/(?:api\/v[12]\/[^/]+\/[^/]+|rpc(?:\/[^/]+)?)\/?$/

const isRpcPath = (url: string) => RPC_PATH.test(url.split('?')[0] ?? '')

/** Refuses a request before its route runs, in the envelope of its interface (JSON-RPC or REST). */
function refuse(request: FastifyRequest, reply: FastifyReply, status: number, message: string) {
  return isRpcPath(request.url)
    ? reply.code(status).send({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })
    : reply.code(status).send({ statusCode: status, message })
}

/** The Fastify app with every route; it does not listen (the caller does). */
export async function buildServer(params: BuildServerParameters): Promise<FastifyInstance> {
  const isAllowedHost = createHostCheck(params.host)
  const answerRpc = createRpcAnswerer({
    store: params.store,
    resolveChain: params.resolveRpcChain,
  })
  let closing = false
  const rpcFastPath = createRpcFastPath({
    answer: answerRpc,
    answerChain: (request) => answerChainRpc(request, params.getChain),
    isAllowedHost,
    bodyLimit: params.bodyLimit,
    isClosing: () => closing,
    log: params.logger,
  })
  const app = Fastify({
    bodyLimit: params.bodyLimit,
    loggerInstance: params.logger,
    return503OnClosing: true,
    // Requests Node's parser refuses (headers too large, malformed) get the REST envelope and Connection: close.
    clientErrorHandler: answerClientError,
    // URLs the router refuses (a path parameter that is no valid percent-encoded UTF-8, or too long) get the
    // envelope of their interface, not Fastify's own body.
    frameworkErrors: (err, request, reply) => {
      const { statusCode, message } = toHttpError(err, request.log)
      // The option's types are generic over server kinds (http2 included); this server is plain http.
      return refuse(request as FastifyRequest, reply as FastifyReply, statusCode, message)
    },
    routerOptions: { ignoreTrailingSlash: true },
    // JSON-RPC POSTs are answered before Fastify's pipeline when they can be (rpcFastPath.ts); the rest is Fastify's.
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (!rpcFastPath(req, res)) handler(req, res)
      })
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
      return server
    },
  })
  // Before any route: the OpenAPI document is built from the routes as registered (docs/).
  const routes = collectRoutes(app)
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })

  // Callback-style hooks: an async one costs every request a promise and a microtask turn.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isAllowedHost(request.headers.host, request.raw.socket)) {
      return refuse(
        request,
        reply,
        403,
        `Host "${request.headers.host ?? ''}" is not allowed: use localhost or 127.0.0.1`,
      )
    }
    const origin = request.headers.origin
    // `Origin: null` (a sandboxed frame, a data: or file: page) is another origin too.
    if (!isRpcPath(request.url) && origin !== undefined && !isSameOrigin(origin, request.headers.host)) {
      return refuse(request, reply, 403, 'Cross-origin requests are not allowed on this route')
    }
    done()
  })

  app.setErrorHandler((err, request, reply) => {
    const body = toHttpError(err, request.log)
    return reply.code(body.statusCode).send(body)
  })
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ statusCode: 404, message: `Route ${request.method} ${request.url.split('?')[0]} not found` }),
  )

  await app.register(async (rpc) => registerRpcRoutes(rpc, { answer: answerRpc }))
  await app.register(async (rest) => {
    // JSON only: a text/plain "simple" request from another site must not reach a handler.
    rest.removeContentTypeParser('text/plain')
    await registerPaymasterRoutes(rest, {
      store: params.store,
      getSupportedChainIds: params.getSupportedChainIds,
      provisionDapp: params.provisionDapp,
      log: app.log,
    })
    await registerSmartContractRoutes(rest, { store: params.store })
    await registerWebhookRoutes(rest, { store: params.store })
    for (const plugin of params.plugins ?? []) await plugin(rest)
  })
  await app.register(async (chainRpc) => registerChainRpcRoutes(chainRpc, { getChain: params.getChain }))
  await app.register(async (ui) =>
    registerConsoleRoutes(ui, {
      session: params.session,
      consoleDir: path.resolve(params.consoleDir),
      getServiceInfo: params.getServiceInfo,
    }),
  )
  await app.register(async (docs) =>
    registerDocsRoutes(docs, {
      getDocuments: createApiDocuments({
        routes,
        bundlerMethods: params.bundlerMethods,
        paymasterMethods: params.paymasterMethods,
        getVersion: () => params.getServiceInfo().version,
      }),
    }),
  )
  app.get(
    '/health',
    withDoc({
      tag: 'Service',
      summary: 'Whether the service answers',
      auth: 'none',
      response: { description: 'It does', schema: z.object({ status: z.literal('ok') }) },
    }),
    async () => ({ status: 'ok' }),
  )
  return app
}

export { BUNDLER_ROUTE, PAYMASTER_ROUTE }
