const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1'])

/** Host name of a Host header value (`example:4337`, `[::1]:4337`), lower-cased. */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    return end === -1 ? value : value.slice(1, end)
  }
  const colon = value.lastIndexOf(':')
  return colon === -1 ? value : value.slice(0, colon)
}

/**
 * DNS-rebinding protection: only requests addressed to a loopback name, a *.localhost name or the
 * configured host are served. A page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example` and is refused.
 */
export function createHostCheck(configuredHost: string): (hostHeader: string | undefined) => boolean {
  const allowed = new Set([...LOOPBACK_NAMES, hostnameOf(configuredHost)])
  return (hostHeader) => {
    if (!hostHeader) return false
    const name = hostnameOf(hostHeader)
    return allowed.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name)
  }
}
