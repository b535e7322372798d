/**
 * The one fetch wrapper of the console. REST answers in the envelope `{statusCode, message, data}` are
 * unwrapped; any failure throws an ApiError whose message is the server's own message.
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly url: string
  /** JSON-RPC error code, when the failure came from a JSON-RPC endpoint. */
  readonly code?: number
  /** JSON-RPC `error.data` or the envelope's `data` on failure. */
  readonly data?: unknown

  constructor(message: string, options: { status: number; url: string; code?: number; data?: unknown }) {
    super(message)
    this.status = options.status
    this.url = options.url
    this.code = options.code
    this.data = options.data
  }

  /** The route does not exist on this service (yet): a feature another part of Opstation has not shipped. */
  get notAvailable(): boolean {
    return (
      this.status === 404 &&
      (/^Route \w+ \S+ not found/.test(this.message) || /^Not found: \/console\/api\//.test(this.message))
    )
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}

export function isNotAvailable(err: unknown): boolean {
  return err instanceof ApiError && err.notAvailable
}

type Connection = { baseUrl: string; authToken: string | null }
const connection: Connection = { baseUrl: '', authToken: null }

/** Where the service is ('' = same origin, the normal case) and the auth token for the dashboard API. */
export function configureConnection(next: Partial<Connection>): void {
  Object.assign(connection, next)
}

export function getConnection(): Readonly<Connection> {
  return connection
}

export function absoluteUrl(path: string): string {
  if (/^https?:\/\//.test(path)) return path
  return `${connection.baseUrl}${path}`
}

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  body?: unknown
  query?: Record<string, string | number | undefined>
  /** dApp-scoped routes send the dApp's apiKey header. */
  apiKey?: string
  /** Send the auth token (default true). */
  auth?: boolean
  signal?: AbortSignal
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = absoluteUrl(path)
  if (!query) return url
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value))
  const text = params.toString()
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function isEnvelope(body: unknown): body is { statusCode: number; message: string; data?: unknown } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { statusCode?: unknown }).statusCode === 'number' &&
    typeof (body as { message?: unknown }).message === 'string'
  )
}

function messageOf(body: unknown, response: Response): string {
  if (typeof body === 'object' && body !== null) {
    const b = body as { message?: unknown; error?: { message?: unknown } }
    if (typeof b.message === 'string' && b.message) return b.message
    if (typeof b.error?.message === 'string') return b.error.message
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300)
  return `HTTP ${response.status} ${response.statusText}`.trim()
}

/** Calls a REST or console route; returns the envelope's `data` (or the whole body when not enveloped). */
export async function requestJson<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query)
  const headers: Record<string, string> = { accept: 'application/json' }
  if (options.auth !== false && connection.authToken) headers.authToken = connection.authToken
  if (options.apiKey) headers.apiKey = options.apiKey
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  let response: Response
  try {
    response = await fetch(url, { method: options.method ?? 'GET', headers, body, signal: options.signal })
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err
    throw new ApiError(
      `The service at ${connection.baseUrl || location.origin} does not answer (${errorMessage(err)})`,
      {
        status: 0,
        url,
      },
    )
  }
  const parsed = await readBody(response)
  if (!response.ok || (isEnvelope(parsed) && parsed.statusCode >= 400)) {
    throw new ApiError(messageOf(parsed, response), {
      status: isEnvelope(parsed) ? parsed.statusCode : response.status,
      url,
      data: isEnvelope(parsed) ? parsed.data : undefined,
    })
  }
  if (isEnvelope(parsed)) return parsed.data as T
  return parsed as T
}
