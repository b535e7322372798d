import { STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'

/** What Node hands a server's `clientError` listener: the parser's error and, for a bad request, its bytes. */
export type ClientError = Error & { code?: string; rawPacket?: unknown }

/**
 * The answer to a request Node's HTTP parser refused before any route saw it (headers too large, a malformed
 * request line or header, a request that timed out): the REST envelope `{statusCode, message}` with
 * `Connection: close`, then the connection ends. Fastify's own answer has no `Connection: close` (a keep-alive
 * client then sends its next request into the closed socket and gets "socket hang up") and a body even for HEAD
 * (which the client reads as the start of the next response).
 */
export function answerClientError(err: ClientError, socket: Duplex): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed HTTP request']
  const body = JSON.stringify({ statusCode: status, message })
  const isHead = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD '
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
  ].join('\r\n')
  if (!socket.writable) {
    socket.destroy()
    return
  }
  socket.once('finish', () => socket.destroy())
  socket.end(`${head}\r\n\r\n${isHead ? '' : body}`)
}
