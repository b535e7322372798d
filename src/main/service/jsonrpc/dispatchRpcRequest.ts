import { RpcError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import { describeZodError } from '../schemas/describeZodError'
import type { RpcContext, RpcMethodRegistry } from './defineMethod'
import { type RpcErrorObject, toRpcError } from './toRpcError'

type RpcId = string | number | null

export type RpcResponse =
  | { jsonrpc: '2.0'; id: RpcId; result: unknown }
  | { jsonrpc: '2.0'; id: RpcId; error: RpcErrorObject }

export type DispatchResult = {
  /** HTTP status: 200 for success; the error's status for a single failed call. */
  httpStatus: number
  /** `undefined` when every call was a notification. */
  body: RpcResponse | RpcResponse[] | undefined
}

const ACCEPTED_VERSIONS = new Set(['2.0', '2.0.0'])

/** Parses the raw body text, then dispatches one call or a batch. Never throws. */
export async function dispatchRpcRequest(
  rawBody: string,
  registry: RpcMethodRegistry,
  ctx: RpcContext,
): Promise<DispatchResult> {
  let payload: unknown
  try {
    payload = JSON.parse(rawBody)
  } catch {
    return errorResult(
      null,
      new RpcError('Parse error: the request body is not valid JSON', RpcCode.parseError),
    )
  }
  if (Array.isArray(payload)) {
    if (payload.length === 0) {
      return errorResult(null, new RpcError('Invalid request: empty batch', RpcCode.invalidRequest))
    }
    const responses = await Promise.all(payload.map((call) => dispatchCall(call, registry, ctx)))
    const body = responses.filter((r): r is InternalResponse => r !== undefined).map(strip)
    return { httpStatus: body.length ? 200 : 204, body: body.length ? body : undefined }
  }
  const response = await dispatchCall(payload, registry, ctx)
  if (!response) return { httpStatus: 204, body: undefined }
  return { httpStatus: response.httpStatus ?? 200, body: strip(response) }
}

type InternalResponse = RpcResponse & { httpStatus?: number }

async function dispatchCall(
  call: unknown,
  registry: RpcMethodRegistry,
  ctx: RpcContext,
): Promise<InternalResponse | undefined> {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    return errorResponse(
      null,
      new RpcError('Invalid request: expected a JSON-RPC request object', RpcCode.invalidRequest),
      ctx,
    )
  }
  const request = call as Record<string, unknown>
  const id = request.id
  const validId =
    id === undefined ||
    id === null ||
    typeof id === 'string' ||
    (typeof id === 'number' && Number.isFinite(id))
  const echoId: RpcId = validId ? ((id ?? null) as RpcId) : null
  if (!validId)
    return errorResponse(
      null,
      new RpcError('Invalid request: id must be a string or a number', RpcCode.invalidRequest),
      ctx,
    )
  if (typeof request.jsonrpc !== 'string' || !ACCEPTED_VERSIONS.has(request.jsonrpc)) {
    return errorResponse(
      echoId,
      new RpcError('Invalid request: jsonrpc must be "2.0"', RpcCode.invalidRequest),
      ctx,
    )
  }
  if (typeof request.method !== 'string' || request.method === '') {
    return errorResponse(
      echoId,
      new RpcError('Invalid request: method must be a non-empty string', RpcCode.invalidRequest),
      ctx,
    )
  }
  const params = request.params ?? []
  if (!Array.isArray(params)) {
    return errorResponse(
      echoId,
      new RpcError('Invalid params: params must be an array', RpcCode.invalidParams),
      ctx,
    )
  }
  const isNotification = id === undefined
  const method = registry.get(request.method)
  let response: InternalResponse
  if (!method) {
    response = errorResponse(
      echoId,
      new RpcError(
        `Method not found: ${request.method} is not served at the ${ctx.endpoint} endpoint`,
        RpcCode.methodNotFound,
      ),
      ctx,
    )
  } else if (method.admin && !ctx.privileged) {
    response = errorResponse(echoId, adminOnly(method.name), ctx)
  } else {
    const parsed = method.params.safeParse(params)
    if (!parsed.success) {
      response = errorResponse(
        echoId,
        new RpcError(`Invalid params: ${describeZodError(parsed.error, 'params')}`, RpcCode.invalidParams),
        ctx,
      )
    } else {
      try {
        const result = await method.handler(parsed.data, ctx)
        response = { jsonrpc: '2.0', id: echoId, result: toWire(result) }
      } catch (err) {
        response = errorResponse(echoId, err, ctx)
      }
    }
  }
  return isNotification ? undefined : response
}

function adminOnly(name: string): RpcError {
  return new RpcError(
    `${name} is an admin method: call it at the bundler URL Opstation shows (its bundler key, not a dApp apiKey) or with the authToken header, and not from a web page of another origin`,
    RpcCode.unauthorized,
    { httpStatus: 403 },
  )
}

function errorResponse(id: RpcId, err: unknown, ctx: Pick<RpcContext, 'log'>): InternalResponse {
  const { error, httpStatus } = toRpcError(err, ctx.log)
  return { jsonrpc: '2.0', id, error, httpStatus }
}

function errorResult(id: RpcId, err: RpcError): DispatchResult {
  const { error, httpStatus } = toRpcError(err)
  return { httpStatus, body: { jsonrpc: '2.0', id, error } }
}

function strip(response: InternalResponse): RpcResponse {
  const { httpStatus: _ignored, ...rest } = response
  return rest as RpcResponse
}

/** A bigint that reaches the wire unconverted goes out as 0x-hex rather than crashing the serializer. */
function toWire(value: unknown): unknown {
  if (value === undefined) return null
  if (typeof value === 'bigint') return `0x${value.toString(16)}`
  if (Array.isArray(value)) return value.map(toWire)
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toWire(v)
    return out
  }
  return value
}
