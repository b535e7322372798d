import type { IncomingHttpHeaders } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import {
  JsonRpcErrorResponseSchema,
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
} from '../docs/jsonRpcSchemas'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { RpcError, UnauthorizedError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import { chooseHttpStatus } from '../jsonrpc/chooseHttpStatus'
import type { RpcContext, RpcMethodRegistry } from '../jsonrpc/defineMethod'
import { type DispatchResult, dispatchRpcRequest } from '../jsonrpc/dispatchRpcRequest'
import { toRpcError } from '../jsonrpc/toRpcError'
import { findAccountByBundlerKey } from '../store/accounts.repo'
import { findDappByApiKey } from '../store/dapps.repo'
import type { Store } from '../store/openStore'
import { equalSecrets } from './consoleSession'
import { isSameOrigin } from './hostGuard'

export const BUNDLER_ROUTE = '/api/v2/:chainId/:bundlerKey'
export const PAYMASTER_ROUTE = '/api/v1/:chainId/:paymasterApiKey'

export type RpcRoutesOptions = {
  store: Store
  /**
   * The chain a URL's `:chainId` segment names, with the methods of its bundler and paymaster URLs; throws
   * UnknownChainError, naming the chains run, for a chain the service does not run (chain/chainRegistry.ts).
   */
  resolveChain: (urlChainId: string) => RpcChain
}

/** One chain's JSON-RPC endpoints: its id and the methods its bundler and paymaster URLs serve. */
export type RpcChain = {
  readonly chainId: number
  readonly rpcMethods: { bundler: RpcMethodRegistry; paymaster: RpcMethodRegistry }
}

type RpcParams = { chainId: string; bundlerKey?: string; paymasterApiKey?: string }

export type RpcEndpoint = RpcContext['endpoint']

/** The answer to one JSON-RPC POST: HTTP status and body (`undefined`: 204, every call was a notification). */
export type RpcAnswer = DispatchResult

/** Answers the JSON-RPC POST body sent to an endpoint URL (`chainId` and `key` as they appear in it). */
export type AnswerRpc = (request: {
  endpoint: RpcEndpoint
  chainId: string
  key: string
  body: string
  log: RpcContext['log']
  /** What the request's headers say about its caller. */
  caller: RpcCaller
}) => Promise<RpcAnswer>

/** The headers of a JSON-RPC request that decide how it is answered and what it may call. */
export type RpcCaller = {
  /** Accept: it decides the HTTP status of an error (chooseHttpStatus). */
  accept: string | undefined
  /** Origin: present on requests from web pages. */
  origin: string | undefined
  contentType: string | undefined
  host: string | undefined
  /** The authToken header (admin methods at a dApp key). */
  authToken: string | undefined
}

/** Reads RpcCaller from Node's request headers (the Fastify route and the fast path alike). */
export function readRpcCaller(headers: IncomingHttpHeaders): RpcCaller {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)
  return {
    accept: headers.accept,
    origin: headers.origin,
    contentType: headers['content-type'],
    host: headers.host,
    authToken: first(headers.authtoken),
  }
}

/** The one place a JSON-RPC POST is answered: the URL's chain and key, then the envelope and the method. */
export function createRpcAnswerer(options: RpcRoutesOptions): AnswerRpc {
  return async ({ endpoint, chainId, key, body, log, caller }) => {
    const { accept } = caller
    let ctx: RpcContext
    let methods: RpcMethodRegistry
    try {
      // A web page's cross-site "simple" POST (text/plain, form encodings) needs no preflight: refuse it, so that
      // a page can only reach these methods the way CORS lets it (application/json, after a preflight).
      if (caller.origin !== undefined && !isJsonContentType(caller.contentType))
        throw new RpcError('Content-Type must be application/json', RpcCode.invalidRequest, {
          httpStatus: 415,
        })
      const chain = options.resolveChain(chainId)
      methods = chain.rpcMethods[endpoint]
      ctx = resolveContext(endpoint, chain.chainId, key, log, options.store)
      ctx.privileged = isPrivileged(ctx, caller)
    } catch (err) {
      const { error, httpStatus } = toRpcError(err, log)
      return {
        httpStatus: chooseHttpStatus(httpStatus, accept),
        body: { jsonrpc: '2.0', id: peekId(body), error },
      }
    }
    const result = await dispatchRpcRequest(body, methods, ctx)
    return { ...result, httpStatus: chooseHttpStatus(result.httpStatus, accept) }
  }
}

/** Headers of every JSON-RPC response: these endpoints are open to any origin (browser dApps call them). */
export const RPC_CORS_HEADERS = { 'access-control-allow-origin': '*', vary: 'Origin' } as const

/**
 * The bundler and paymaster JSON-RPC endpoints in Biconomy's URL shapes. Bodies are parsed here, not by
 * Fastify, so malformed JSON becomes a JSON-RPC -32700 error. These routes are open to any origin
 * (browser dApps call them); nothing else on the server is. Well-formed POSTs over a real socket are
 * usually answered before Fastify sees them (rpcFastPath.ts), with the same `answer`.
 */
export async function registerRpcRoutes(app: FastifyInstance, options: { answer: AnswerRpc }): Promise<void> {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))

  // Callback-style hook: an async one costs every request a promise and a microtask turn.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(RPC_CORS_HEADERS)
    if (request.method === 'OPTIONS') {
      reply.header('Access-Control-Allow-Methods', 'POST, OPTIONS')
      reply.header(
        'Access-Control-Allow-Headers',
        request.headers['access-control-request-headers'] ?? 'content-type, accept',
      )
      reply.header('Access-Control-Max-Age', '86400')
      if (request.headers['access-control-request-private-network'] === 'true') {
        reply.header('Access-Control-Allow-Private-Network', 'true')
      }
    }
    done()
  })

  app.setErrorHandler((err: { statusCode?: number; message?: string }, request, reply) => {
    const status = err.statusCode
    const { error, httpStatus } = toRpcError(
      status === 413
        ? new RpcError('Request body is too large', RpcCode.invalidRequest, { httpStatus: 413 })
        : typeof status === 'number' && status >= 400 && status < 500
          ? new RpcError(`Invalid request: ${err.message}`, RpcCode.invalidRequest, { httpStatus: status })
          : err,
      request.log,
    )
    return reply
      .code(chooseHttpStatus(httpStatus, request.headers.accept))
      .send({ jsonrpc: '2.0', id: null, error })
  })

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).send()
  app.options(BUNDLER_ROUTE, preflight)
  app.options(PAYMASTER_ROUTE, preflight)

  const handle =
    (endpoint: RpcEndpoint) =>
    async (request: FastifyRequest<{ Params: RpcParams }>, reply: FastifyReply) => {
      const result = await options.answer({
        endpoint,
        chainId: request.params.chainId,
        key: (endpoint === 'bundler' ? request.params.bundlerKey : request.params.paymasterApiKey) ?? '',
        body: typeof request.body === 'string' ? request.body : '',
        log: request.log,
        caller: readRpcCaller(request.headers),
      })
      if (result.body === undefined) return reply.code(204).send()
      return reply.code(result.httpStatus).type('application/json').send(result.body)
    }

  app.post(
    BUNDLER_ROUTE,
    withDoc({
      ...RPC_DOC,
      summary: 'The bundler JSON-RPC endpoint (methods: /docs/openrpc.json, server "bundler")',
      params: z.object({
        chainId: z.string().meta({ description: 'One of the chains the service runs (31337 by default)' }),
        bundlerKey: z.string().meta({
          description: "The account's bundler key (`bundlerUrl` of the ready line), or a dApp's apiKey",
        }),
      }),
    }),
    handle('bundler'),
  )
  app.post(
    PAYMASTER_ROUTE,
    withDoc({
      ...RPC_DOC,
      summary: 'The paymaster JSON-RPC endpoint of a dApp (methods: /docs/openrpc.json, server "paymaster")',
      params: z.object({
        chainId: z
          .string()
          .meta({ description: "The dApp's chain, one the service runs (31337 by default)" }),
        paymasterApiKey: z.string().meta({ description: "The dApp's apiKey" }),
      }),
    }),
    handle('paymaster'),
  )
}

/** What the two JSON-RPC endpoints share in the OpenAPI document. */
const RPC_DOC: Omit<RouteDoc, 'summary'> = {
  tag: 'JSON-RPC',
  description:
    'One JSON-RPC 2.0 call or a batch. The key in the URL is the credential; admin methods (debug_bundler_*) ' +
    "also take the account's `authToken` header. Open to other origins (browser dApps call it): a request from a " +
    'web page must be `application/json`. A failed call answers HTTP 200 with its error object, unless the ' +
    'request sends `Accept: application/json` (without `*/*`): then with the status below.',
  auth: 'none',
  body: JsonRpcRequestSchema,
  response: {
    description: 'The JSON-RPC answer (204 with no body when every call was a notification)',
    schema: JsonRpcResponseSchema,
  },
  errorSchema: JsonRpcErrorResponseSchema,
  errors: {
    400: 'Parse error (-32700), invalid request (-32600), or a chain the service does not run (-32003, naming the chains it runs; `data.chainIds`)',
    401: 'Unknown bundler key or paymaster apiKey (-32001)',
    413: 'Request body is too large (-32600)',
    415: 'A web page sent another Content-Type than application/json (-32600)',
  },
}

/** Who calls (the key's account, and its dApp) at the URL of `chainId`; a paymaster serves its own chain's dApps only. */
function resolveContext(
  endpoint: RpcEndpoint,
  chainId: number,
  key: string,
  log: RpcContext['log'],
  store: Store,
): RpcContext {
  if (endpoint === 'bundler') {
    const account = findAccountByBundlerKey(store, key)
    if (account) return { endpoint, chainId, account, dapp: undefined, privileged: false, log }
    const dapp = findDappByApiKey(store, key)
    const owner = dapp && store.data.accounts.find((a) => a.id === dapp.accountId)
    if (dapp && owner) return { endpoint, chainId, account: owner, dapp, privileged: false, log }
    throw new UnauthorizedError(
      `Unknown bundler key "${key}": use the bundler URL shown by Opstation (or a dApp apiKey)`,
      { data: { reason: 'UNKNOWN_BUNDLER_KEY' } },
    )
  }
  const dapp = findDappByApiKey(store, key)
  const owner = dapp && store.data.accounts.find((a) => a.id === dapp.accountId)
  if (!dapp || !owner) {
    throw new UnauthorizedError(
      `Unknown paymaster apiKey "${key}": create a paymaster (dApp) and use its paymaster URL`,
    )
  }
  if (dapp.chainId !== chainId) {
    throw new RpcError(
      `The paymaster "${dapp.name}" is for chain ${dapp.chainId}, not ${chainId}`,
      RpcCode.badRequest,
    )
  }
  return { endpoint, chainId, account: owner, dapp, privileged: false, log }
}

/**
 * Admin methods (debug_bundler_*) need the account's own bundler key in the URL or its authToken header: a dApp
 * apiKey is public (it sits in every paymaster URL and dApp frontend). And never from a page of another origin.
 */
function isPrivileged(ctx: RpcContext, caller: RpcCaller): boolean {
  if (caller.origin !== undefined && !isSameOrigin(caller.origin, caller.host)) return false
  const viaBundlerKey = ctx.endpoint === 'bundler' && ctx.dapp === undefined
  const viaAuthToken =
    caller.authToken !== undefined && equalSecrets(caller.authToken.trim(), ctx.account.authToken)
  return viaBundlerKey || viaAuthToken
}

function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase()
  return type === 'application/json' || (type?.startsWith('application/') === true && type.endsWith('+json'))
}

function peekId(body: string): string | number | null {
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id
    return typeof id === 'string' || typeof id === 'number' ? id : null
  } catch {
    return null
  }
}
