import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { NODE_METHODS } from '../bundler/methods/forwardToNode'
import type { Chain } from '../chain'
import { isNodeUnreachable } from '../chain/node/isNodeUnreachable'
import { NodeRpcError } from '../chain/node/nodeRpcError'
import {
  JsonRpcErrorResponseSchema,
  JsonRpcRequestSchema,
  JsonRpcResponseSchema,
} from '../docs/jsonRpcSchemas'
import { withDoc } from '../docs/routeDoc'
import { ChainUnavailableError, UnknownChainError } from '../errors'
import { classifyError } from '../errors/classifyError'
import { RpcCode } from '../errors/rpcCodes'
import { describeNodeCallProblem, findNodeCallProblem } from '../schemas/nodeCallSchema'
import { isSameOrigin } from './hostGuard'
import { RPC_CORS_HEADERS } from './rpcRoutes'

/** The first chain's RPC (the chain of a service of one chain). */
export const CHAIN_RPC_ROUTE = '/rpc'
/** Each chain's RPC, by its id. */
export const CHAIN_RPC_BY_ID_ROUTE = '/rpc/:chainId'

/**
 * The chain a chain RPC URL names (`urlChainId`, the `:chainId` segment; undefined at `/rpc`: the first chain), or
 * undefined without a chain; throws UnknownChainError, naming the chains run, for a chain the service does not run.
 */
export type GetRpcChain = (urlChainId?: string) => Chain | undefined

/**
 * What a page on another origin may call (a dApp's own page, a wallet extension): reading the chain and sending a
 * transaction it signed itself. Never the node's own keys (`eth_sendTransaction`, `eth_sign*`, `eth_accounts`) or
 * its control methods (`anvil_*`, `hardhat_*`, `evm_*`, `debug_*`, ...).
 */
const CROSS_ORIGIN_METHODS: ReadonlySet<string> = new Set([
  ...NODE_METHODS,
  'eth_chainId',
  'net_listening',
  'eth_createAccessList',
  'eth_simulateV1',
])

type Call = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown }

/**
 * The chain's JSON-RPC for users and wallets (`rpcUrl` of the embedded chain): the node behind the service's guards.
 * buildServer's Host check refuses DNS-rebinding names; here a request from a web page (it carries `Origin`) must be
 * JSON (a cross-site "simple" text/plain POST is refused), and one from another origin may only call
 * CROSS_ORIGIN_METHODS. Tools without an Origin (cast, viem, forge scripts, the console itself) get every method.
 * anvil's own HTTP port is not announced and sits on a port browsers refuse (findBrowserBlockedPort.ts).
 */
export async function registerChainRpcRoutes(
  app: FastifyInstance,
  options: { getChain: GetRpcChain },
): Promise<void> {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body))

  app.setErrorHandler((err: { statusCode?: number; message?: string }, request, reply) => {
    const status = typeof err.statusCode === 'number' && err.statusCode < 500 ? err.statusCode : 500
    if (status >= 500) request.log.error({ err }, 'chain RPC request failed')
    const message =
      status === 413
        ? 'Request body is too large'
        : status < 500
          ? `Invalid request: ${err.message}`
          : 'Internal error'
    return reply
      .code(status)
      .headers(RPC_CORS_HEADERS)
      .send({
        jsonrpc: '2.0',
        id: null,
        error: { code: status < 500 ? RpcCode.invalidRequest : RpcCode.internalError, message },
      })
  })

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .code(204)
      .headers(RPC_CORS_HEADERS)
      .header('Access-Control-Allow-Methods', 'POST, OPTIONS')
      .header('Access-Control-Allow-Headers', 'content-type, accept')
      .header('Access-Control-Max-Age', '86400')
      .send()
  app.options(CHAIN_RPC_ROUTE, preflight)
  app.options(CHAIN_RPC_BY_ID_ROUTE, preflight)

  const doc = (summary: string, chainIdParam: boolean) =>
    withDoc({
      tag: 'JSON-RPC',
      summary,
      ...(chainIdParam
        ? {
            params: z.object({
              chainId: z.string().meta({ description: 'One of the chains the service runs' }),
            }),
          }
        : {}),
      description:
        'Every method of the node for tools without an `Origin` (cast, viem, forge scripts); a web page of another ' +
        'origin may only read the chain and send transactions it signed (`eth_sendRawTransaction`), never `anvil_*`, ' +
        '`evm_*`, `debug_*`, `eth_sendTransaction`, `eth_sign*` or `eth_accounts`.',
      auth: 'none',
      body: JsonRpcRequestSchema,
      response: { description: "The node's JSON-RPC answer", schema: JsonRpcResponseSchema },
      errorSchema: JsonRpcErrorResponseSchema,
      errors: {
        400: 'Parse error (-32700), empty batch (-32600), or a chain the service does not run (-32003, naming the chains it runs)',
        403: 'A method a web page of another origin may not call (-32001)',
        415: 'A web page sent another Content-Type than application/json (-32600)',
        503: 'No chain is running, or its node is away',
      },
    })
  const answer = async (request: FastifyRequest<{ Params: { chainId?: string } }>, reply: FastifyReply) => {
    const answered = await answerChainRpc(
      {
        body: typeof request.body === 'string' ? request.body : '',
        origin: request.headers.origin,
        contentType: request.headers['content-type'],
        host: request.headers.host,
        chainId: request.params.chainId,
      },
      options.getChain,
    )
    return reply.code(answered.status).headers(RPC_CORS_HEADERS).send(answered.body)
  }
  app.post(
    CHAIN_RPC_ROUTE,
    doc(
      "The first chain's JSON-RPC (`rpcUrl` of the embedded chain): the node's methods, behind the service's guards",
      false,
    ),
    answer,
  )
  app.post(
    CHAIN_RPC_BY_ID_ROUTE,
    doc("A chain's JSON-RPC by its id (`chains[].rpcUrl` of an embedded chain), with the same guards", true),
    answer,
  )
}

/** What the chain RPC needs of a request. */
export type ChainRpcRequest = {
  body: string
  origin: string | undefined
  contentType: string | undefined
  host: string | undefined
  /** The URL's chain id segment (`/rpc/{chainId}`); undefined at `/rpc`, the first chain's. */
  chainId?: string
}

/**
 * The chain RPC's answer to one POST (a call or a batch): the HTTP status and the JSON-RPC body, with every guard of
 * the route (registerChainRpcRoutes) applied. Used by the Fastify route and by the fast path (rpcFastPath.ts). Throws
 * only on a failure of the service itself (answered 500 by either).
 */
export async function answerChainRpc(
  request: ChainRpcRequest,
  getChain: GetRpcChain,
): Promise<{ status: number; body: unknown }> {
  const fail = (status: number, code: number, message: string, id: unknown = null) => ({
    status,
    body: { jsonrpc: '2.0', id: toId(id), error: { code, message } },
  })
  const { origin } = request
  if (origin !== undefined && !isJson(request.contentType))
    return fail(415, RpcCode.invalidRequest, 'Content-Type must be application/json')
  let payload: unknown
  try {
    payload = JSON.parse(request.body)
  } catch {
    return fail(400, RpcCode.parseError, 'Parse error: the request body is not valid JSON')
  }
  const calls = (Array.isArray(payload) ? payload : [payload]) as Call[]
  if (calls.length === 0) return fail(400, RpcCode.invalidRequest, 'Invalid request: empty batch')
  if (origin !== undefined && !isSameOrigin(origin, request.host)) {
    const refused = calls.find(
      (call) => typeof call?.method !== 'string' || !CROSS_ORIGIN_METHODS.has(call.method),
    )
    if (refused)
      return fail(
        403,
        RpcCode.unauthorized,
        `${String(refused?.method)} is not available to web pages of other origins on this chain RPC`,
        refused?.id,
      )
  }
  let chain: Chain | undefined
  try {
    chain = getChain(request.chainId)
  } catch (err) {
    if (!(err instanceof UnknownChainError)) throw err
    return {
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: toId(calls[0]?.id),
        error: { code: err.rpcCode, message: err.shortMessage, data: err.data },
      },
    }
  }
  if (!chain) return fail(503, RpcCode.internalError, 'No chain is running (started with --no-chain)')
  const answers = await Promise.all(calls.map((call) => forwardCall(chain, call)))
  const away = answers.find((a) => a instanceof ChainUnavailableError)
  if (away) return fail(503, RpcCode.resourceUnavailable, away.shortMessage)
  return { status: 200, body: Array.isArray(payload) ? answers : answers[0] }
}

async function forwardCall(chain: Chain, call: Call): Promise<object | ChainUnavailableError> {
  const id = toId(call?.id)
  if (typeof call !== 'object' || call === null || typeof call.method !== 'string')
    return { jsonrpc: '2.0', id, error: { code: RpcCode.invalidRequest, message: 'Invalid request' } }
  // Params the node would choke on (too deep for its parser, or that crash it) stop here.
  const problem = findNodeCallProblem(call.method, call.params)
  if (problem) {
    const message = `Invalid params: ${describeNodeCallProblem(problem)}`
    return { jsonrpc: '2.0', id, error: { code: RpcCode.invalidParams, message } }
  }
  try {
    return { jsonrpc: '2.0', id, result: await chain.request(call.method, call.params ?? []) }
  } catch (err) {
    if (err instanceof NodeRpcError)
      return { jsonrpc: '2.0', id, error: { code: err.code, message: err.message, data: err.data } }
    // Refused, reset, timed out: the node is away (restarting, or an external node that stopped).
    if (isNodeUnreachable(err)) return classifyError(err) as ChainUnavailableError
    // Anything else is a failure here, not the node's: the error handler answers -32603 and logs it.
    throw err
  }
}

function toId(id: unknown): string | number | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

function isJson(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json'
}
