import http from 'node:http'

export type RawResponse = { status: number; body: string; headers: http.IncomingHttpHeaders }

/**
 * One HTTP request over node:http with exactly the framing asked for (fetch always sends a Content-Length and
 * never a foreign Host): `chunked` sends the body in two chunks without a length, `headers` may set Host.
 */
export function requestRaw(
  url: string,
  init: { method?: string; body?: string; chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const target = new URL(url)
  const body = init.body ?? ''
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'POST',
        headers: {
          ...(init.body !== undefined && !init.chunked ? { 'content-length': Buffer.byteLength(body) } : {}),
          ...init.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        )
      },
    )
    req.on('error', reject)
    if (init.chunked) {
      // Two writes without a length: node:http sends them as chunks.
      req.write(body.slice(0, 5))
      req.end(body.slice(5))
    } else req.end(body === '' ? undefined : body)
  })
}
