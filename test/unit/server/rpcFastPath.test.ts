import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChainRpcRequest } from '../../../src/main/service/server/chainRpcRoutes'
import { createRpcFastPath } from '../../../src/main/service/server/rpcFastPath'
import type { AnswerRpc } from '../../../src/main/service/server/rpcRoutes'
import { requestRaw } from '../../helpers/requestRaw'

const servers: http.Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) server.close()
})

/** A server whose requests go to the fast path first and to a fallback that answers "fallback" otherwise. */
async function serve(options: { level?: string; closing?: boolean; bodyLimit?: number } = {}) {
  const answered: Parameters<AnswerRpc>[0][] = []
  const answer: AnswerRpc = async (request) => {
    answered.push(request)
    return { httpStatus: 200, body: { jsonrpc: '2.0', id: 1, result: request.body.length } }
  }
  const chainAnswered: ChainRpcRequest[] = []
  const answerChain = async (request: ChainRpcRequest) => {
    chainAnswered.push(request)
    if (request.body === 'fail') throw new Error('a bug')
    return { status: 403, body: { jsonrpc: '2.0', id: 2, error: { code: -32001, message: 'refused' } } }
  }
  const fastPath = createRpcFastPath({
    answer,
    answerChain,
    isAllowedHost: (host) => host?.startsWith('127.0.0.1') ?? false,
    bodyLimit: options.bodyLimit ?? 1000,
    isClosing: () => options.closing ?? false,
    log: { level: options.level ?? 'warn', error: () => {} } as unknown as FastifyBaseLogger,
  })
  const server = http.createServer((req, res) => {
    if (!fastPath(req, res)) {
      req.resume()
      res.end('fallback')
    }
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const send = (
    path: string,
    init: { method?: string; body?: string; headers?: Record<string, string>; chunked?: boolean } = {},
  ) => requestRaw(`http://127.0.0.1:${port}${path}`, init)
  return { send, answered, chainAnswered }
}

describe('createRpcFastPath', () => {
  it('answers a sized POST to the bundler or paymaster URL itself, with the answer, JSON and CORS headers', async () => {
    const { send, answered } = await serve()
    const bundler = await send('/api/v2/31337/key-1', { body: '{"a":1}' })
    expect(bundler.status).toBe(200)
    expect(JSON.parse(bundler.body)).toEqual({ jsonrpc: '2.0', id: 1, result: 7 })
    expect(bundler.headers['access-control-allow-origin']).toBe('*')
    expect(bundler.headers['content-type']).toBe('application/json; charset=utf-8')
    await send('/api/v1/137/pm.Key_2/?x=1', { body: '[]' })
    expect(answered.map(({ endpoint, chainId, key, body }) => ({ endpoint, chainId, key, body }))).toEqual([
      { endpoint: 'bundler', chainId: '31337', key: 'key-1', body: '{"a":1}' },
      { endpoint: 'paymaster', chainId: '137', key: 'pm.Key_2', body: '[]' },
    ])
  })

  it("answers a sized POST to the chain RPC (/rpc) with the chain's answer, its status and the request's origin and type", async () => {
    const { send, answered, chainAnswered } = await serve()
    const headers = { origin: 'http://evil.example', 'content-type': 'application/json' }
    const refused = await send('/rpc', { body: '{"method":"anvil_mine"}', headers })
    expect(refused.status).toBe(403)
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32001, message: 'refused' },
    })
    expect(refused.headers['access-control-allow-origin']).toBe('*')
    await send('/rpc/?x=1', { body: '[]' })
    // A chain's own RPC: its id goes to the answer.
    await send('/rpc/31338/', { body: '[]' })
    expect(chainAnswered.map((request) => request.chainId)).toEqual([undefined, undefined, '31338'])
    expect(
      chainAnswered
        .slice(0, 2)
        .map(({ body, origin, contentType, host }) => ({ body, origin, contentType, host })),
    ).toEqual([
      {
        body: '{"method":"anvil_mine"}',
        origin: 'http://evil.example',
        contentType: 'application/json',
        host: expect.stringMatching(/^127\.0\.0\.1:/),
      },
      {
        body: '[]',
        origin: undefined,
        contentType: undefined,
        host: expect.stringMatching(/^127\.0\.0\.1:/),
      },
    ])
    expect(answered).toEqual([])
    const failed = await send('/rpc', { body: 'fail' })
    expect(failed.status).toBe(500)
    expect(JSON.parse(failed.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32603, message: 'Internal error' },
    })
  })

  it('leaves everything else to the fallback (Fastify): other methods and paths, chunked or oversized bodies, a foreign host', async () => {
    const { send, answered, chainAnswered } = await serve()
    const cases = [
      send('/api/v2/31337/key', { method: 'OPTIONS' }),
      send('/api/v2/31337/key', { method: 'GET' }),
      send('/api/v2/31337', { body: '{}' }),
      send('/api/v3/31337/key', { body: '{}' }),
      send('/api/v2/31337/k%20y', { body: '{}' }),
      send('/api/v2/31337/key', { body: '{}', chunked: true }),
      send('/api/v2/31337/key', { body: 'x'.repeat(1001) }),
      send('/api/v2/31337/key', { body: '{}', headers: { host: 'evil.example' } }),
      send('/rpc', { method: 'OPTIONS' }),
      send('/rpc/x', { body: '{}' }),
      send('/rpc', { body: '{}', chunked: true }),
      send('/rpc', { body: '{}', headers: { host: 'evil.example' } }),
    ]
    for (const res of await Promise.all(cases)) expect(res.body).toBe('fallback')
    expect(answered).toEqual([])
    expect(chainAnswered).toEqual([])
  })

  it('steps aside while the server closes and when Fastify logs every request (info level and below)', async () => {
    for (const options of [{ closing: true }, { level: 'info' }, { level: 'debug' }]) {
      const { send, answered } = await serve(options)
      expect((await send('/api/v2/31337/key', { body: '{}' })).body).toBe('fallback')
      expect(answered).toEqual([])
    }
  })
})
