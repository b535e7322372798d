/** What the service sends to a dApp webhook and what came back. */
export type WebhookCallResult = {
  method: 'GET' | 'POST'
  url: string
  requestBody: string | null
  /** HTTP status; null when no response arrived (time-out, connection refused). */
  status: number | null
  responseBody: string | null
  latencyMs: number
  /** True only when the response is 2xx JSON with arePoliciesVerified or arePoliciesVerifed === true. */
  verified: boolean
  field: 'arePoliciesVerified' | 'arePoliciesVerifed' | null
  /** Why not verified, or null. */
  error: string | null
}

export type CallWebhookParameters = {
  webhookUrl: string
  requestType: 'GET' | 'POST'
  webhookData: Record<string, unknown>
  /** The UserOperation in wire form (hex strings). */
  userOp: Record<string, unknown>
  timeoutMs: number
}

/** Longest response body read (bytes); longer bodies are not JSON the service can use anyway. */
const MAX_RESPONSE_BYTES = 64 * 1024

/**
 * Calls a dApp webhook (spec section 6, biconomy-protocol.md section 7).
 * POST: body `{"data": {...webhookData, "userOp": op}, "userOp": op}` (satisfies the official sample and both
 * public handler styles). GET: webhookData as query parameters (objects JSON-encoded).
 * Verified only if the JSON response has `arePoliciesVerified` or `arePoliciesVerifed` === true. A time-out,
 * non-2xx, invalid JSON or a missing field means not verified. Never throws.
 */
export async function callWebhook(params: CallWebhookParameters): Promise<WebhookCallResult> {
  const { requestType: method } = params
  let url = params.webhookUrl
  let requestBody: string | null = null
  const headers: Record<string, string> = { accept: 'application/json' }
  try {
    if (method === 'POST') {
      requestBody = JSON.stringify({
        data: { ...params.webhookData, userOp: params.userOp },
        userOp: params.userOp,
      })
      headers['content-type'] = 'application/json'
    } else {
      url = appendQuery(params.webhookUrl, params.webhookData)
    }
  } catch (err) {
    // The edges bound webhookData (schemas/boundedJsonSchema.ts); whatever still cannot be written is not sent.
    return {
      method,
      url,
      requestBody: null,
      status: null,
      responseBody: null,
      latencyMs: 0,
      verified: false,
      field: null,
      error: `Request not sent: the webhook data cannot be written as JSON (${describe(err)})`,
    }
  }
  const started = performance.now()
  const base = { method, url, requestBody }
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10
  let response: Response
  let text: string
  try {
    const signal = AbortSignal.timeout(params.timeoutMs)
    response = await fetch(url, {
      method,
      headers,
      body: requestBody ?? undefined,
      signal,
      redirect: 'manual',
    })
    text = await readText(response, signal)
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')
    return {
      ...base,
      status: null,
      responseBody: null,
      latencyMs: elapsed(),
      verified: false,
      field: null,
      error: timedOut
        ? `No response within ${params.timeoutMs} ms (time-out)`
        : `Request failed: ${describe(err)}`,
    }
  }
  const latencyMs = elapsed()
  const done = { ...base, status: response.status, responseBody: text, latencyMs }
  if (response.status < 200 || response.status > 299) {
    return { ...done, verified: false, field: null, error: `Webhook answered HTTP ${response.status}` }
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { ...done, verified: false, field: null, error: 'Webhook response is not valid JSON' }
  }
  return { ...done, ...readVerdict(body) }
}

/** Reads the verdict from a parsed body: either spelling, strictly `true`. */
export function readVerdict(body: unknown): Pick<WebhookCallResult, 'verified' | 'field' | 'error'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { verified: false, field: null, error: 'Webhook response is not a JSON object' }
  }
  const record = body as Record<string, unknown>
  for (const field of ['arePoliciesVerified', 'arePoliciesVerifed'] as const) {
    if (record[field] === true) return { verified: true, field, error: null }
  }
  for (const field of ['arePoliciesVerified', 'arePoliciesVerifed'] as const) {
    if (field in record) {
      return { verified: false, field, error: `Webhook answered ${field}: ${JSON.stringify(record[field])}` }
    }
  }
  return {
    verified: false,
    field: null,
    error: 'Webhook response has neither arePoliciesVerified nor arePoliciesVerifed',
  }
}

function appendQuery(webhookUrl: string, data: Record<string, unknown>): string {
  const url = new URL(webhookUrl)
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue
    url.searchParams.append(
      key,
      typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value),
    )
  }
  return url.toString()
}

async function readText(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  const onAbort = () => void reader.cancel().catch(() => {})
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    while (total < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      total += value.byteLength
    }
    if (signal.aborted) throw signal.reason
  } finally {
    signal.removeEventListener('abort', onAbort)
    if (total >= MAX_RESPONSE_BYTES) void reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES)
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err)
  const cause = (err as { cause?: { code?: unknown; message?: unknown; errors?: { code?: unknown }[] } })
    .cause
  const code = cause?.code ?? cause?.errors?.[0]?.code
  if (code) return `${err.message} (${String(code)})`
  return typeof cause?.message === 'string' && cause.message
    ? `${err.message} (${cause.message})`
    : err.message
}
