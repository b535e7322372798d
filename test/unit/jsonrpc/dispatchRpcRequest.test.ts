import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidInputError } from '../../../src/main/service/errors'
import {
  createMethodRegistry,
  defineMethod,
  type RpcContext,
} from '../../../src/main/service/jsonrpc/defineMethod'
import { dispatchRpcRequest } from '../../../src/main/service/jsonrpc/dispatchRpcRequest'
import { silentLogger } from '../../../src/main/service/log/logger'

const registry = createMethodRegistry([
  defineMethod({
    name: 'echo',
    params: z.tuple([z.object({ sender: z.string().startsWith('0x', 'expected 0x-hex') })]),
    handler: ([p]) => p,
  }),
  defineMethod({ name: 'big', params: z.tuple([]), handler: () => ({ value: 255n, skip: undefined }) }),
  defineMethod({
    name: 'fails',
    params: z.tuple([]),
    handler: () => {
      throw new InvalidInputError('nope')
    },
  }),
  defineMethod({
    name: 'crashes',
    params: z.tuple([]),
    handler: () => {
      throw new TypeError('secret internals')
    },
  }),
])
const ctx = {
  endpoint: 'bundler',
  chainId: 1,
  account: {} as RpcContext['account'],
  dapp: undefined,
  log: silentLogger,
} as RpcContext
const call = (body: unknown) =>
  dispatchRpcRequest(typeof body === 'string' ? body : JSON.stringify(body), registry, ctx)

describe('JSON-RPC envelope', () => {
  it('echoes a string id and a number id exactly as sent', async () => {
    expect(
      (await call({ jsonrpc: '2.0', id: 'abc', method: 'echo', params: [{ sender: '0x1' }] })).body,
    ).toEqual({
      jsonrpc: '2.0',
      id: 'abc',
      result: { sender: '0x1' },
    })
    expect((await call({ jsonrpc: '2.0', id: 1732190000, method: 'big', params: [] })).body).toMatchObject({
      id: 1732190000,
    })
  })

  it('accepts jsonrpc "2.0.0" as the spec text says, and answers "2.0"', async () => {
    const res = await call({ jsonrpc: '2.0.0', id: 1, method: 'big', params: [] })
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: { value: '0xff' } })
  })

  it('answers invalid JSON with -32700 and HTTP 400', async () => {
    const res = await call('{"jsonrpc": "2.0", ')
    expect(res.httpStatus).toBe(400)
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error: the request body is not valid JSON' },
    })
  })

  it('answers a malformed envelope with -32600', async () => {
    expect((await call({ id: 1, method: 'big' })).body).toMatchObject({ error: { code: -32600 } })
    expect((await call({ jsonrpc: '1.0', id: 1, method: 'big' })).body).toMatchObject({
      id: 1,
      error: { code: -32600 },
    })
    expect((await call({ jsonrpc: '2.0', id: 1 })).body).toMatchObject({
      error: { code: -32600, message: 'Invalid request: method must be a non-empty string' },
    })
    expect((await call(42)).body).toMatchObject({ error: { code: -32600 } })
  })

  it('answers an unknown method with -32601 naming it', async () => {
    const res = await call({ jsonrpc: '2.0', id: 7, method: 'eth_nothing', params: [] })
    expect(res.httpStatus).toBe(400)
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32601, message: 'Method not found: eth_nothing is not served at the bundler endpoint' },
    })
  })

  it('answers bad params with -32602 naming the field', async () => {
    const res = await call({ jsonrpc: '2.0', id: 1, method: 'echo', params: [{ sender: 'xyz' }] })
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: params[0].sender: expected 0x-hex' },
    })
    const notArray = await call({ jsonrpc: '2.0', id: 1, method: 'echo', params: { sender: '0x' } })
    expect(notArray.body).toMatchObject({
      error: { code: -32602, message: 'Invalid params: params must be an array' },
    })
  })

  it('maps domain errors to their code and hides unexpected ones behind -32603 with HTTP 500', async () => {
    expect((await call({ jsonrpc: '2.0', id: 1, method: 'fails', params: [] })).body).toMatchObject({
      error: { code: -32602, message: 'nope' },
    })
    const crash = await call({ jsonrpc: '2.0', id: 1, method: 'crashes', params: [] })
    expect(crash.httpStatus).toBe(500)
    expect(crash.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } })
  })

  it('serves batches, one response per call, and no response for notifications', async () => {
    const res = await call([
      { jsonrpc: '2.0', id: 1, method: 'big', params: [] },
      { jsonrpc: '2.0', method: 'big', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'nope', params: [] },
    ])
    expect(res.httpStatus).toBe(200)
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: { value: '0xff' } },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32601, message: 'Method not found: nope is not served at the bundler endpoint' },
      },
    ])
  })
})
