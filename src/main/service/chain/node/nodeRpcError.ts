/** A JSON-RPC error as the node sent it (viem reads `code`; getRevertData reads `data`). */
export class NodeRpcError extends Error {
  override name = 'NodeRpcError'
  constructor(
    message: string,
    readonly code: number,
    readonly data: unknown,
  ) {
    super(message)
  }
}

/** A JSON-RPC response as read from the node's text. */
export type RpcResponseJson = { result?: unknown; error?: { code: number; message: string; data?: unknown } }

/**
 * Reads the response text in place of JSON.parse, for a result too large to build as objects (the struct
 * log of a trace): returns the same envelope, with the result in whatever form the caller wants.
 */
export type ReadResponseBody = (text: string) => RpcResponseJson

/**
 * One JSON-RPC call to the node: resolves with `result`, rejects with a NodeRpcError or a connection error.
 * Transports that receive the response as text use `readBody` for it when given.
 */
export type NodeRequest = (method: string, params: unknown, readBody?: ReadResponseBody) => Promise<unknown>

/** Errors of the connection rather than of the call: the node restarted, or closed an idle keep-alive socket. */
export function isConnectionError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  return (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ECONNREFUSED' ||
    code === 'ENOENT' ||
    code === 'ERR_SOCKET_CLOSED'
  )
}

/**
 * Reads one JSON-RPC response body: the result, or a NodeRpcError. The error carries no stack: it would only show
 * the socket reader that parsed the response, and node errors are the common case here (EntryPoint v0.6's
 * simulateValidation reverts by design on every send), where capturing one cost more than the rest of the read.
 */
export function readRpcResponse(
  json: RpcResponseJson,
): { ok: true; result: unknown } | { ok: false; error: NodeRpcError } {
  if (!json.error) return { ok: true, result: json.result }
  const stackTraceLimit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return { ok: false, error: new NodeRpcError(json.error.message, json.error.code, json.error.data) }
  } finally {
    Error.stackTraceLimit = stackTraceLimit
  }
}
