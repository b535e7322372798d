import { UnknownRpcError } from 'viem'
import { describe, expect, it } from 'vitest'
import { NodeRpcError } from '../../../src/main/service/chain/node/nodeRpcError'
import { CHAIN_UNAVAILABLE_MESSAGE, ChainError, InvalidInputError } from '../../../src/main/service/errors'
import { toRpcError } from '../../../src/main/service/jsonrpc/toRpcError'
import { toHttpError } from '../../../src/main/service/server/restEnvelope'

const connectionError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:4190`), { code, syscall: 'connect' })

/** Failures as they reach the two mappers while the node is down, in the wrappings the service's code gives them. */
const outages: [string, unknown][] = [
  ['a refused connection (anvil restarting)', connectionError('ECONNREFUSED')],
  ['a reset connection', connectionError('ECONNRESET')],
  [
    'a lost IPC connection',
    Object.assign(new Error('the node closed the IPC connection'), { code: 'ECONNRESET' }),
  ],
  ['a node that does not answer', new Error('the node did not answer within 30 s')],
  ['viem wrapping a refused connection', new UnknownRpcError(connectionError('ECONNREFUSED'))],
  [
    'fetch failing on IPv4 and IPv6',
    new TypeError('fetch failed', { cause: new AggregateError([connectionError('ECONNREFUSED')]) }),
  ],
  [
    'a ChainError wrapping one',
    new ChainError('Gas estimation could not trace the simulation: connect ECONNREFUSED', {
      cause: connectionError('ECONNREFUSED'),
    }),
  ],
  ['a closed socket', Object.assign(new Error('socket closed'), { code: 'ERR_SOCKET_CLOSED' })],
  ['a timed-out connect', connectionError('ETIMEDOUT')],
]

describe('every chain outage is a 503 with one message, in both envelopes', () => {
  it.each(outages)('%s', (_, err) => {
    expect(toHttpError(err)).toEqual({ statusCode: 503, message: CHAIN_UNAVAILABLE_MESSAGE })
    expect(toRpcError(err)).toEqual({
      error: { code: -32002, message: CHAIN_UNAVAILABLE_MESSAGE },
      httpStatus: 503,
    })
  })

  it('leaves answers of the node, client errors and other failures as they are', () => {
    const reverted = new NodeRpcError('execution reverted', 3, '0x')
    expect(toHttpError(reverted).statusCode).toBe(500)
    expect(toRpcError(new InvalidInputError('amount must be more than 0')).httpStatus).toBe(400)
    const missingFile = Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' })
    expect(toHttpError(missingFile)).toEqual({ statusCode: 500, message: 'Internal Server Error' })
    expect(toRpcError(new ChainError('EntryPoint v0.7 is not deployed on this chain')).error.message).toBe(
      'EntryPoint v0.7 is not deployed on this chain',
    )
  })
})
