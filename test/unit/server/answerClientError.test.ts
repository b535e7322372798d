import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { answerClientError, type ClientError } from '../../../src/main/service/server/answerClientError'

/** A socket stand-in that records what is written to it and whether it was closed. */
function fakeSocket() {
  const socket = new PassThrough()
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  const written = () => Buffer.concat(chunks).toString('latin1')
  return { socket, written }
}

const parserError = (code: string, rawPacket?: string): ClientError =>
  Object.assign(new Error(`Parse Error: ${code}`), {
    code,
    rawPacket: rawPacket === undefined ? undefined : Buffer.from(rawPacket),
  })

describe('requests the HTTP parser refuses', () => {
  it('get the REST envelope and Connection: close, so a keep-alive client does not reuse the socket', async () => {
    const { socket, written } = fakeSocket()
    answerClientError(parserError('HPE_HEADER_OVERFLOW', 'GET /health?x=xxxx'), socket)
    await new Promise((resolve) => socket.once('close', resolve))
    const body = '{"statusCode":431,"message":"Request headers are too large"}'
    expect(written()).toBe(
      [
        'HTTP/1.1 431 Request Header Fields Too Large',
        'Connection: close',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${body.length}`,
        '',
        body,
      ].join('\r\n'),
    )
    expect(socket.destroyed).toBe(true)
  })

  it('send no body after the head of a HEAD request (the client would read it as the next response)', async () => {
    const { socket, written } = fakeSocket()
    answerClientError(parserError('HPE_HEADER_OVERFLOW', 'HEAD /health?x=xxxx'), socket)
    await new Promise((resolve) => socket.once('close', resolve))
    expect(written()).toMatch(/^HTTP\/1\.1 431 .*\r\n\r\n$/s)
    expect(written()).toContain('Content-Length: 60\r\n')
  })

  it('say what went wrong: a malformed request is a 400, a timed-out one a 408', async () => {
    for (const [code, line] of [
      ['HPE_INVALID_METHOD', 'HTTP/1.1 400 Bad Request'],
      ['ERR_HTTP_REQUEST_TIMEOUT', 'HTTP/1.1 408 Request Timeout'],
    ] as const) {
      const { socket, written } = fakeSocket()
      answerClientError(parserError(code), socket)
      await new Promise((resolve) => socket.once('close', resolve))
      expect(written().split('\r\n')[0]).toBe(line)
    }
  })

  it('leave a reset connection alone', () => {
    const { socket, written } = fakeSocket()
    answerClientError(parserError('ECONNRESET'), socket)
    expect(written()).toBe('')
    expect(socket.destroyed).toBe(false)
  })
})
