export const REDACTED = '[redacted]'

/**
 * Path segments that are credentials: the key in a bundler or paymaster URL (`/api/v2/<chainId>/<bundlerKey>`,
 * `/api/v1/<chainId>/<apiKey>`; not the REST routes under `/api/v2/public/`) and the dApp apiKey of console routes.
 */
const SECRET_SEGMENTS = [
  /^(\/+api\/+v[12]\/+(?!public(?:[/?#]|$))[^/?#]+\/+)([^/?#]+)/i,
  /^(\/+console\/+api\/+dapps\/+)([^/?#]+)/i,
]

/** Query parameters that carry credentials (`?authToken=` of the event stream, tokens, keys). */
const SECRET_PARAMETER = /token|key|secret|password|session|auth|code/i

/** A request URL as it may be logged: every credential in its path or query replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?')
  let pathname = queryAt === -1 ? url : url.slice(0, queryAt)
  for (const pattern of SECRET_SEGMENTS) pathname = pathname.replace(pattern, `$1${REDACTED}`)
  if (queryAt === -1) return pathname
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? ''
      return SECRET_PARAMETER.test(decodeName(name)) ? `${name}=${REDACTED}` : pair
    })
    .join('&')
  return `${pathname}?${query}`
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    return name
  }
}
