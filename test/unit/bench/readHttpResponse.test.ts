import { describe, expect, it } from 'vitest'
import { readHttpResponse } from '../../../bench/createRpc'

const http = (text: string) => Buffer.from(text, 'latin1')

describe("the bench's HTTP response reader", () => {
  it('reads a content-length body, and waits while the body is incomplete', () => {
    const whole = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 10\r\n\r\n{"a":"é"}'
    expect(readHttpResponse(http(whole))).toBeNull() // 'é' is two bytes in UTF-8: 10 bytes needed, 9 in latin1
    const utf8 = Buffer.concat([
      Buffer.from(whole.slice(0, whole.indexOf('{'))),
      Buffer.from('{"a":"é"}', 'utf8'),
    ])
    expect(readHttpResponse(utf8)).toEqual({ status: 200, body: '{"a":"é"}', length: utf8.length })
    expect(readHttpResponse(utf8.subarray(0, utf8.length - 1))).toBeNull()
  })

  it('reads a chunked body with or without trailers, and leaves what follows', () => {
    const chunked =
      'HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\n3\r\n:1}\r\n0\r\n\r\n'
    expect(readHttpResponse(http(`${chunked}HTTP/1.1`))).toEqual({
      status: 400,
      body: '{"a":1}',
      length: chunked.length,
    })
    expect(readHttpResponse(http(chunked.slice(0, -2)))).toBeNull()
    const trailers =
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n'
    expect(readHttpResponse(http(trailers))).toEqual({ status: 200, body: '{}', length: trailers.length })
  })

  it('reads a response without a body, and nothing before its head is complete', () => {
    const noBody = 'HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n'
    expect(readHttpResponse(http(`${noBody}HTTP`))).toEqual({ status: 204, body: '', length: noBody.length })
    expect(readHttpResponse(http('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n'))).toBeNull()
  })
})
