import http from 'node:http'
import type { FastifyInstance } from 'fastify'
import { CHAIN_UNAVAILABLE_MESSAGE } from '../../../src/main/service/errors'

/**
 * The HTTP side of the fuzz tests: the server's own route list, one request with a deadline, and the checks every
 * answer must pass (no 5xx but the chain-outage 503, the interface's envelope, no stack trace).
 */

export type RouteEntry = { method: string; url: string }

/**
 * Every route the Fastify app serves, read from the app itself (printRoutes' tree, joined back into full paths),
 * each one confirmed with hasRoute: a route added later is listed without a change here. The tree drops the slash
 * before a child that does not start with one (`/console/*` under `/console`, which ignoreTrailingSlash stores
 * without its slash): such a path is confirmed with the slash put back.
 */
export function listRoutes(app: FastifyInstance): RouteEntry[] {
  const has = (method: string, url: string) =>
    app.hasRoute({ method, url } as Parameters<FastifyInstance['hasRoute']>[0])
  const tree = app.printRoutes({ commonPrefix: false })
  const routes: RouteEntry[] = []
  const prefixes: string[] = []
  for (const line of tree.split('\n')) {
    if (line.trim() === '') continue
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match) throw new Error(`printRoutes line not understood: ${JSON.stringify(line)}`)
    const depth = (match[1] ?? '').length / 4
    prefixes.length = depth
    const prefix = prefixes.join('')
    const fragment = match[2] as string
    const methods = match[3]?.split(', ') ?? []
    const slashed = !fragment.startsWith('/') && methods.length > 0 && !has(methods[0]!, prefix + fragment)
    prefixes.push(slashed ? `/${fragment}` : fragment)
    const url = prefixes.join('')
    for (const method of methods) {
      if (!has(method, url)) throw new Error(`listRoutes read ${method} ${url}, which the app does not have`)
      routes.push({ method, url })
    }
  }
  return routes
}

/** The names of a route's path parameters (`:apiKey`) and whether it ends in a wildcard. */
export function pathParameters(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string)
}

export type FuzzRequest = {
  method: string
  /** Path and query, already encoded (any byte outside printable ASCII is percent-encoded before sending). */
  path: string
  headers: Record<string, string>
  body?: string | Buffer
  chunked?: boolean
  /** Send the headers as given (a case about credentials), not with the service's current ones. */
  keepCredentials?: boolean
}

export type FuzzAnswer =
  | { kind: 'answer'; status: number; contentType: string; text: string; ms: number }
  | { kind: 'hang'; ms: number }
  | { kind: 'connection-error'; message: string; ms: number }

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })

/** Percent-encodes what node:http refuses in a request line (spaces, controls, non-ASCII, lone surrogates). */
function toRequestPath(path: string): string {
  let out = ''
  for (const char of path) {
    const code = char.codePointAt(0) ?? 0
    if (code >= 0x21 && code <= 0x7e) out += char
    else
      for (const byte of Buffer.from(char, 'utf8'))
        out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/**
 * Sends one request and waits at most `timeoutMs` for the whole answer (a stream, text/event-stream, counts as
 * answered once its headers arrive). Never rejects: a hang or a broken connection is an outcome to check.
 */
export function sendFuzzRequest(
  baseUrl: string,
  request: FuzzRequest,
  timeoutMs: number,
): Promise<FuzzAnswer> {
  const target = new URL(baseUrl)
  const started = Date.now()
  const ms = () => Date.now() - started
  return new Promise((resolve) => {
    let settled = false
    const settle = (answer: FuzzAnswer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(answer)
    }
    const body = request.body ?? ''
    const req = http.request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: toRequestPath(request.path),
        headers: {
          ...(request.body !== undefined && !request.chunked
            ? { 'content-length': Buffer.byteLength(body) }
            : {}),
          ...request.headers,
        },
      },
      (res) => {
        const contentType = String(res.headers['content-type'] ?? '')
        if (contentType.startsWith('text/event-stream')) {
          settle({ kind: 'answer', status: res.statusCode ?? 0, contentType, text: '', ms: ms() })
          res.destroy()
          return
        }
        const chunks: Buffer[] = []
        const answered = () =>
          settle({
            kind: 'answer',
            status: res.statusCode ?? 0,
            contentType,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: ms(),
          })
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        // A connection closed after a complete answer (Connection: close) is still that answer.
        res.on('error', () => (res.complete ? answered() : undefined))
        res.on('end', answered)
        res.on('close', () => (res.complete ? answered() : undefined))
      },
    )
    const timer = setTimeout(() => {
      settle({ kind: 'hang', ms: ms() })
      req.destroy()
    }, timeoutMs)
    req.on('error', (err) => settle({ kind: 'connection-error', message: err.message, ms: ms() }))
    writeBody(
      req,
      typeof body === 'string' ? Buffer.from(body) : body,
      request.chunked === true,
      () => settled,
    )
  })
}

/**
 * Writes a body in pieces and stops once the answer has come: a server may answer a body above its limit (413,
 * `Connection: close`) before reading it, and a client still writing into the closed socket would fail with EPIPE
 * rather than read that answer. A chunked body starts with a 5-byte piece, so that it really goes in chunks.
 */
function writeBody(req: http.ClientRequest, body: Buffer, chunked: boolean, answered: () => boolean): void {
  const PIECE = 64 * 1024
  let offset = 0
  const next = () => {
    if (answered() || req.destroyed) return
    if (offset >= body.length) {
      req.end()
      return
    }
    const size = chunked && offset === 0 ? 5 : PIECE
    const piece = body.subarray(offset, offset + size)
    offset += piece.length
    if (req.write(piece)) setImmediate(next)
    else req.once('drain', next)
  }
  if (body.length === 0) req.end()
  else next()
}

/** Text that reads like a stack trace or a source location (`    at fn (file.ts:1:2)`, `node:internal`). */
export function findStackTrace(text: string): string | undefined {
  const match = /\n\s+at \S|\bat [^\s()]+ \([^)]*:\d+:\d+\)|node:internal\/|\.(?:ts|js|mjs|cjs):\d+:\d+/.exec(
    text,
  )
  return match ? text.slice(Math.max(0, match.index - 60), match.index + 80) : undefined
}

/** The 503 the interfaces document for a chain that is out of reach; every other 5xx is a defect. */
export function isChainOutage(status: number, message: unknown): boolean {
  return (
    status === 503 &&
    typeof message === 'string' &&
    message.startsWith(CHAIN_UNAVAILABLE_MESSAGE.slice(0, CHAIN_UNAVAILABLE_MESSAGE.indexOf('(')))
  )
}

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/**
 * What is wrong with a REST answer (empty when nothing): a hang, a dropped connection, a 5xx other than the
 * chain-outage 503, an error not in the `{statusCode, message}` envelope, a stack trace. `isPage` marks routes that
 * serve the console's page rather than JSON (they may answer HTML, a redirect, or the documented 503 text of a
 * console that was not built).
 */
export function checkRestAnswer(answer: FuzzAnswer, method: string, isPage = false): string[] {
  if (answer.kind === 'hang') return [`no answer within ${answer.ms} ms (a hang)`]
  if (answer.kind === 'connection-error') return [`the connection broke without an answer: ${answer.message}`]
  const problems: string[] = []
  const { status, text, contentType } = answer
  const stack = findStackTrace(text)
  if (stack) problems.push(`a stack trace in the answer: ${JSON.stringify(stack)}`)
  if (method === 'HEAD' || status === 204 || contentType.startsWith('text/event-stream')) {
    // A HEAD answer has no body to tell the console-not-built 503 of a page from a failure.
    if (status >= 500 && !(isPage && status === 503)) problems.push(`HTTP ${status}`)
    return problems
  }
  if (isPage && !contentType.includes('json')) {
    if (status >= 500 && !(status === 503 && /console is not built/.test(text)))
      problems.push(`HTTP ${status}: ${text.slice(0, 200)}`)
    return problems
  }
  const parsed = parse(text)
  if (!parsed.ok) return [...problems, `HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`]
  const body = parsed.value as { statusCode?: unknown; message?: unknown } | null
  const message = body && typeof body === 'object' ? body.message : undefined
  if (status >= 500 && !isChainOutage(status, message))
    problems.push(`HTTP ${status}: ${JSON.stringify(body).slice(0, 300)}`)
  if (status >= 400) {
    if (!body || typeof body !== 'object' || body.statusCode !== status || typeof message !== 'string')
      problems.push(`HTTP ${status} not in the {statusCode, message} envelope: ${text.slice(0, 300)}`)
    else if (message === 'Internal Server Error' || message === '')
      problems.push(`HTTP ${status} with message ${JSON.stringify(message)}`)
    // zod's default text names no field: the caller cannot tell what to fix.
    else if (/^Invalid input/.test(message)) problems.push(`HTTP ${status} names no field: ${message}`)
    const extra = Object.keys(body ?? {}).filter((key) => !['statusCode', 'message', 'data'].includes(key))
    if (extra.length > 0) problems.push(`HTTP ${status} with keys outside the envelope: ${extra.join(', ')}`)
  }
  return problems
}

type RpcErrorBody = { code?: unknown; message?: unknown; data?: unknown }

/** What is wrong with one JSON-RPC response object. */
function checkRpcResponse(response: unknown, where: string, failedAlready: boolean): string[] {
  if (!response || typeof response !== 'object' || Array.isArray(response))
    return [`${where}: not a JSON-RPC response object: ${JSON.stringify(response)?.slice(0, 200)}`]
  const r = response as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: RpcErrorBody }
  const problems: string[] = []
  if (r.jsonrpc !== '2.0') problems.push(`${where}: jsonrpc is ${JSON.stringify(r.jsonrpc)}`)
  if (!('id' in r) || !(r.id === null || typeof r.id === 'string' || typeof r.id === 'number'))
    problems.push(`${where}: id missing or not a string, number or null`)
  const hasResult = 'result' in r
  const hasError = 'error' in r
  if (hasResult === hasError) problems.push(`${where}: needs exactly one of result and error`)
  if (hasError) {
    const error = r.error
    if (
      !error ||
      typeof error !== 'object' ||
      !Number.isInteger(error.code) ||
      typeof error.message !== 'string'
    )
      problems.push(`${where}: error is not {code, message}: ${JSON.stringify(error)?.slice(0, 200)}`)
    // The mapper's answer to anything it does not know (toRpcError): the service failed, not the caller. (Not
    // said twice when the HTTP status says it already.)
    else if (error.code === -32603 && error.message === 'Internal error' && !failedAlready)
      problems.push(`${where}: an internal error (-32603 "Internal error")`)
  }
  return problems
}

/**
 * What is wrong with a JSON-RPC answer: a hang, a dropped connection, a 5xx other than the chain-outage 503, a body
 * that is not a JSON-RPC response (or a batch of them), an internal error, a stack trace.
 */
export function checkRpcAnswer(answer: FuzzAnswer): string[] {
  if (answer.kind === 'hang') return [`no answer within ${answer.ms} ms (a hang)`]
  if (answer.kind === 'connection-error') return [`the connection broke without an answer: ${answer.message}`]
  const problems: string[] = []
  const { status, text } = answer
  const stack = findStackTrace(text)
  if (stack) problems.push(`a stack trace in the answer: ${JSON.stringify(stack)}`)
  if (status === 204) {
    if (text !== '') problems.push('HTTP 204 with a body')
    return problems
  }
  const parsed = parse(text)
  if (!parsed.ok) return [...problems, `HTTP ${status} with a body that is not JSON: ${text.slice(0, 200)}`]
  const body = parsed.value
  const first = (Array.isArray(body) ? body[0] : body) as { error?: RpcErrorBody } | undefined
  const failed = status >= 500 && !isChainOutage(status, first?.error?.message)
  if (failed) problems.push(`HTTP ${status}: ${text.slice(0, 300)}`)
  if (Array.isArray(body)) {
    if (body.length === 0) problems.push('an empty batch answer')
    body.forEach((item, i) => {
      problems.push(...checkRpcResponse(item, `batch[${i}]`, failed))
    })
  } else problems.push(...checkRpcResponse(body, 'response', failed))
  return problems
}

/** One line describing a request for a failure message: enough to see and replay the case. */
export function describeRequest(request: FuzzRequest, label: string): string {
  const body = request.body
  const text =
    body === undefined
      ? '(no body)'
      : typeof body === 'string'
        ? body
        : `bytes ${body.toString('hex').slice(0, 80)}`
  const excerpt = text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text
  const type = request.headers['content-type'] ?? '(no content type)'
  return `[${label}] ${request.method} ${request.path.slice(0, 200)} ${type}${request.chunked ? ' chunked' : ''} ${excerpt}`
}

/**
 * Records every exit of the embedded chain from now on: no input may crash the node (a public dApp key reaches it
 * through the bundler's pass-through methods). `take()` returns the exits since the last call.
 */
export function watchChainExits(chain: {
  onEvent: (listener: (event: { type: string }) => void) => unknown
}) {
  let exits: string[] = []
  chain.onEvent((event) => {
    if (event.type === 'chain.exited') exits.push(JSON.stringify(event))
  })
  return {
    take: () => {
      const taken = exits
      exits = []
      return taken
    },
  }
}
