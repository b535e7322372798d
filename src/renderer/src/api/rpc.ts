import { ApiError, absoluteUrl } from './http'

export type RpcExchange = {
  url: string
  request: { jsonrpc: '2.0'; id: number; method: string; params: unknown[] }
  /** The whole JSON-RPC response body (result or error), as received. */
  response: unknown
  httpStatus: number
  ms: number
}

let nextId = 1

/**
 * One JSON-RPC call to the bundler or the paymaster, exactly as a dApp makes it. `onExchange` receives
 * the raw request and response so the sandbox can show them.
 */
export async function rpcRequest<T>(
  url: string,
  method: string,
  params: unknown[],
  onExchange?: (exchange: RpcExchange) => void,
): Promise<T> {
  const request = { jsonrpc: '2.0' as const, id: nextId++, method, params }
  const started = performance.now()
  const target = absoluteUrl(url)
  let response: Response
  try {
    response = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(request),
    })
  } catch (err) {
    throw new ApiError(`${method}: the endpoint does not answer (${(err as Error).message})`, {
      status: 0,
      url: target,
    })
  }
  const text = await response.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {}
  onExchange?.({
    url: target,
    request,
    response: body,
    httpStatus: response.status,
    ms: Math.round(performance.now() - started),
  })
  const envelope = body as
    | { result?: unknown; error?: { code?: number; message?: string; data?: unknown } }
    | undefined
  if (envelope && typeof envelope === 'object' && envelope.error) {
    throw new ApiError(envelope.error.message ?? `${method} failed`, {
      status: response.status,
      url: target,
      code: envelope.error.code,
      data: envelope.error.data,
    })
  }
  if (!response.ok) {
    const message =
      (body as { message?: string } | undefined)?.message ??
      `${method}: HTTP ${response.status} ${response.statusText}`
    throw new ApiError(message, { status: response.status, url: target })
  }
  if (!envelope || typeof envelope !== 'object' || !('result' in envelope)) {
    throw new ApiError(`${method}: the answer is not a JSON-RPC response`, {
      status: response.status,
      url: target,
    })
  }
  return envelope.result as T
}
