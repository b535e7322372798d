import { RpcCode } from './rpcCodes'

/**
 * The one error hierarchy of the service. Domain code throws these; exactly two mappers read them:
 * `jsonrpc/toRpcError.ts` (JSON-RPC error objects) and `server/toHttpError.ts` (REST envelope).
 */
export type AppErrorOptions = {
  cause?: unknown
  /** Extra machine-readable detail, sent as JSON-RPC `error.data` / kept in logs. */
  data?: unknown
}

export class AppError extends Error {
  override name = 'AppError'
  /** The one-line message shown to the caller. */
  readonly shortMessage: string
  readonly data?: unknown
  /** JSON-RPC error code (EIP-1474 / ERC-7769). */
  rpcCode = -32603
  /** HTTP status for the REST envelope. */
  httpStatus = 500
  /**
   * HTTP status of a JSON-RPC error response. Deterministic rejections use 4xx: the Biconomy SDK only
   * rejects on non-2xx, and viem keeps the JSON-RPC code of a non-2xx body and does not retry 400.
   */
  rpcHttpStatus = 500

  constructor(shortMessage: string, options: AppErrorOptions = {}) {
    super(shortMessage, options.cause === undefined ? undefined : { cause: options.cause })
    this.shortMessage = shortMessage
    this.data = options.data
  }
}

/** The caller sent something malformed (bad field, wrong type). */
export class InvalidInputError extends AppError {
  override name = 'InvalidInputError'
  override rpcHttpStatus = 400
  override rpcCode = -32602
  override httpStatus = 400
}

/** A referenced record does not exist (or belongs to another account). */
export class NotFoundError extends AppError {
  override name = 'NotFoundError'
  override rpcHttpStatus = 404
  override rpcCode = -32001
  override httpStatus = 404
}

/** A record with the same unique key exists. */
export class ConflictError extends AppError {
  override name = 'ConflictError'
  override rpcHttpStatus = 400
  override rpcCode = -32602
  override httpStatus = 400
}

/** Missing or wrong credentials. */
export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError'
  override rpcHttpStatus = 401
  override rpcCode = -32001
  override httpStatus = 401
}

/** A chain-side problem (node unreachable, contract missing) the caller cannot fix. */
export class ChainError extends AppError {
  override name = 'ChainError'
  override rpcCode = -32603
  override httpStatus = 503
  override rpcHttpStatus = 503
}

/** A JSON-RPC level failure with an explicit code (envelope errors, ERC-7769 rejections). */
export class RpcError extends AppError {
  override name = 'RpcError'
  constructor(shortMessage: string, code: number, options: AppErrorOptions & { httpStatus?: number } = {}) {
    super(shortMessage, options)
    this.rpcCode = code
    this.rpcHttpStatus = options.httpStatus ?? 400
    this.httpStatus = this.rpcHttpStatus
  }
}

/**
 * A URL names a chain the service does not run (`/api/v2/1/…` on a service of chain 31337): 400, JSON-RPC -32003 at
 * RPC URLs, the REST envelope at the dashboard. The message names the chains it runs.
 */
export class UnknownChainError extends AppError {
  override name = 'UnknownChainError'
  override rpcCode = RpcCode.badRequest
  override rpcHttpStatus = 400
  override httpStatus = 400
}

/** Configuration or start-up problem (port in use, data folder locked, no anvil binary). */
export class StartupError extends AppError {
  override name = 'StartupError'
}

/**
 * What every request answers while the chain's node is out of reach (503, JSON-RPC -32002 "resource unavailable"):
 * what is known of the outage (the node at … has not answered since …; the node was reset, contracts being
 * redeployed), or that it may be restarting.
 */
export function describeChainUnavailable(outage = 'its node may be restarting'): string {
  return `The chain is not answering right now (${outage}); try again in a moment`
}
export const CHAIN_UNAVAILABLE_MESSAGE = describeChainUnavailable()

/**
 * The node did not answer: a refused, reset or timed-out connection (anvil restarting, an external node down), or
 * the service's gate refused the call while the node is known to be away (its `outage` then says how).
 */
export class ChainUnavailableError extends ChainError {
  override name = 'ChainUnavailableError'
  override rpcCode = -32002
  constructor(options: AppErrorOptions & { outage?: string } = {}) {
    super(describeChainUnavailable(options.outage), options)
  }
}
