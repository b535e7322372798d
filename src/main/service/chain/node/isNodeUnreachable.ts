/**
 * Error codes of a connection that could not be made or was lost (node stopped, restarting, unreachable host).
 * ENOENT is left out: elsewhere it means a missing file (createNodeTransport.ts reports an IPC socket that is not
 * there as a refused connection).
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'ERR_SOCKET_CLOSED',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  // gateNodeRequest.ts: the node is known to be away (restarting, unreachable, being recovered).
  'ECHAINAWAY',
])

/** Errors of viem's own transports (a ws:// node) that mean the node did not answer. */
const TRANSPORT_ERROR_NAMES = new Set([
  'HttpRequestError',
  'TimeoutError',
  'SocketClosedError',
  'WebSocketRequestError',
])

/** What our transports (createHttpRequest.ts, createIpcRequest.ts) say when the node gives no usable answer. */
const NO_ANSWER =
  /^(the node did not answer within|the node closed the IPC connection|the IPC connection is closed|the node answered HTTP \d+ without JSON)/

/**
 * Whether the failure, or anything in its cause chain, is the node being out of reach rather than an answer from
 * it: a refused, reset or timed-out connection of any transport (node:http, IPC, fetch, viem's). A JSON-RPC error
 * the node sent is an answer, never an outage.
 */
export function isNodeUnreachable(err: unknown): boolean {
  const seen = new Set<unknown>()
  const pending: unknown[] = [err]
  while (pending.length > 0 && seen.size < 32) {
    const item = pending.pop()
    if (!item || typeof item !== 'object' || seen.has(item)) continue
    seen.add(item)
    const { code, name, message, cause, errors } = item as {
      code?: unknown
      name?: unknown
      message?: unknown
      cause?: unknown
      errors?: unknown
    }
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true
    if (typeof name === 'string' && TRANSPORT_ERROR_NAMES.has(name)) return true
    if (typeof message === 'string' && NO_ANSWER.test(message)) return true
    if (cause !== undefined) pending.push(cause)
    // AggregateError (a connection tried on IPv4 and IPv6) lists its parts.
    if (Array.isArray(errors)) pending.push(...errors)
  }
  return false
}
