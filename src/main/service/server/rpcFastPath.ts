import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger } from 'fastify'
import { RpcCode } from '../errors/rpcCodes'
import { toRpcError } from '../jsonrpc/toRpcError'
import type { ChainRpcRequest } from './chainRpcRoutes'
import type { ConnectionEnds } from './hostGuard'
import { type AnswerRpc, RPC_CORS_HEADERS, type RpcEndpoint, readRpcCaller } from './rpcRoutes'

export type CreateRpcFastPathParameters = {
  answer: AnswerRpc
  /** The chain RPC's answer (chainRpcRoutes' answerChainRpc with the service's chain). */
  answerChain: (request: ChainRpcRequest) => Promise<{ status: number; body: unknown }>
  isAllowedHost: (hostHeader: string | undefined, connection: ConnectionEnds) => boolean
  bodyLimit: number
  /** True once the server is closing (Fastify then answers 503). */
  isClosing: () => boolean
  log: FastifyBaseLogger
}

/** Levels at which Fastify logs every request: the fast path then steps aside, so each request is logged. */
const REQUEST_LOG_LEVELS = new Set(['info', 'debug', 'trace'])

/** `/api/v2/:chainId/:bundlerKey` and `/api/v1/:chainId/:paymasterApiKey`, optional trailing slash and query. */
const RPC_URL = /^\/api\/v([12])\/([0-9A-Za-z]+)\/([0-9A-Za-z._~-]+)\/?(?:\?.*)?$/
/** The chain RPC (`/rpc`, or a chain's `/rpc/:chainId`), optional trailing slash and query. */
const CHAIN_RPC_URL = /^\/rpc(?:\/(\d+))?\/?(?:\?.*)?$/

/**
 * Answers the usual JSON-RPC POST (allowed host, body length given and within the limit) straight off Node's
 * request, before Fastify's request pipeline: every UserOperation costs an SDK five or more of these calls, and under
 * load the service spent about a fifth less CPU per operation this way (`npm run bench`). The chain RPC (`/rpc`) too:
 * an SDK reads the nonce and the fees there for every operation (a chain read cost the service 40–55 % less CPU this
 * way: an eth_call 850 against 1,450 µs, on a busy machine). The answer is the Fastify route's own (`answer` or
 * `answerChain`, same status, body and CORS headers); anything else (other methods and paths, preflight, a refused
 * host, chunked or oversized bodies, shutdown, a log level at which Fastify logs each request) returns false and goes
 * to Fastify, which answers it as before.
 */
export function createRpcFastPath(
  params: CreateRpcFastPathParameters,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || params.isClosing() || REQUEST_LOG_LEVELS.has(params.log.level)) return false
    const url = req.url ?? ''
    const match = RPC_URL.exec(url)
    const chainRpc = match ? null : CHAIN_RPC_URL.exec(url)
    const length = Number(req.headers['content-length'])
    if (
      (!match && !chainRpc) ||
      !params.isAllowedHost(req.headers.host, req.socket) ||
      !Number.isSafeInteger(length) ||
      length > params.bodyLimit
    ) {
      return false
    }
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('error', () => {})
    req.on('end', () => {
      const body = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')
      const answered = match
        ? params
            .answer({
              endpoint: (match[1] === '2' ? 'bundler' : 'paymaster') satisfies RpcEndpoint,
              chainId: match[2] as string,
              key: match[3] as string,
              body,
              log: params.log,
              caller: readRpcCaller(req.headers),
            })
            .then((result) => ({ status: result.httpStatus, body: result.body }))
        : params.answerChain({
            body,
            origin: req.headers.origin,
            contentType: req.headers['content-type'],
            host: req.headers.host,
            chainId: chainRpc?.[1],
          })
      answered
        .then((result) => {
          if (result.body === undefined) {
            res.writeHead(204, RPC_CORS_HEADERS)
            res.end()
            return
          }
          const json = JSON.stringify(result.body)
          res.writeHead(result.status, {
            ...RPC_CORS_HEADERS,
            'content-type': 'application/json; charset=utf-8',
            'content-length': Buffer.byteLength(json),
          })
          res.end(json)
        })
        .catch((err: unknown) => {
          // Neither answerer throws for what the caller sent: this is a bug or a broken socket.
          if (res.headersSent) return res.end()
          const { error, httpStatus } = chainRpc
            ? answerChainRpcFailure(err, params.log)
            : toRpcError(err, params.log)
          const json = JSON.stringify({ jsonrpc: '2.0', id: null, error })
          res.writeHead(httpStatus, {
            ...RPC_CORS_HEADERS,
            'content-type': 'application/json; charset=utf-8',
          })
          res.end(json)
        })
    })
    return true
  }
}

/** The chain RPC's answer to a failure of the service itself, as its Fastify route's error handler gives it. */
function answerChainRpcFailure(err: unknown, log: FastifyBaseLogger) {
  log.error({ err }, 'chain RPC request failed')
  return { httpStatus: 500, error: { code: RpcCode.internalError, message: 'Internal error' } }
}
