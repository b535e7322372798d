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

/** The two ends of the connection a request came on (Node's socket addresses). */
export type ConnectionEnds = { remoteAddress?: string; localAddress?: string }

/**
 * DNS-rebinding protection: a request is served only when its Host names this service as the client reached it:
 * a loopback name (`localhost`, `*.localhost`, 127.x, ::1) on a loopback connection, the configured host, or the
 * IP address the connection came in on. A page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example` and is refused; with `--host` on a LAN address, a client there that sends
 * `Host: localhost` is refused too (loopback names only count from this machine).
 */
export function createHostCheck(
  configuredHost: string,
): (hostHeader: string | undefined, connection: ConnectionEnds) => boolean {
  const configured = hostnameOf(configuredHost)
  const configuredIsName = configured !== '0.0.0.0' && configured !== '::' && !isLoopbackName(configured)
  return (hostHeader, connection) => {
    if (!hostHeader) return false
    const name = hostnameOf(hostHeader)
    if (isLoopbackName(name)) return isLoopbackAddress(connection.remoteAddress)
    if (configuredIsName && name === configured) return true
    return connection.localAddress !== undefined && name === unmapIpv4(connection.localAddress)
  }
}

function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name)
}

/** True for 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (`::ffff:127.0.0.1`). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const ip = unmapIpv4(address.toLowerCase())
  return ip === '::1' || /^127\.\d+\.\d+\.\d+$/.test(ip)
}

function unmapIpv4(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address
}

/** True when `origin` (an Origin header) is the origin the request was addressed to (its Host). */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host
  } catch {
    return false
  }
}
