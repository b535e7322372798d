import { describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import { NodeRpcError } from '../../../src/main/service/chain/node/nodeRpcError'
import { ChainError, RpcError } from '../../../src/main/service/errors'
import { traceCallFrames, traceTransactionFrames } from '../../../src/main/service/explain/traceFrames'

/** A chain whose node answers every request with `error`. */
const chainAnswering = (error: Error) =>
  ({
    publicClient: {
      request: async () => {
        throw error
      },
    },
  }) as unknown as Chain

/** A chain whose node answers every request with `answer`. */
const chainReturning = (answer: unknown) =>
  ({ publicClient: { request: async () => answer } }) as unknown as Chain

const hash = `0x${'11'.repeat(32)}` as const
const call = { to: '0x0000000071727De22E5E9d8BAf0edAc6f37da032' } as const

describe('tracing an operation on a node', () => {
  it('a node without debug_traceTransaction is -32002 saying what the explanation cannot show', async () => {
    const error = await traceTransactionFrames(
      chainAnswering(new NodeRpcError('Method not found', -32601, undefined)),
      hash,
    ).catch((err) => err)
    expect(error).toBeInstanceOf(RpcError)
    expect(error.rpcCode).toBe(-32002)
    expect(error.shortMessage).toMatch(
      /does not serve debug_traceTransaction, so the operation cannot be explained/,
    )
  })

  it('a node that says in words it lacks debug_traceCall is told the same way', async () => {
    const error = await traceCallFrames(
      chainAnswering(
        new NodeRpcError('the method debug_traceCall does not exist/is not available', -32000, undefined),
      ),
      call,
    ).catch((err) => err)
    expect(error.rpcCode).toBe(-32002)
    expect(error.shortMessage).toMatch(/does not serve debug_traceCall/)
  })

  it("any other node failure is a ChainError with the node's first line", async () => {
    const error = await traceTransactionFrames(
      chainAnswering(new NodeRpcError('transaction not found\nmore', -32000, undefined)),
      hash,
    ).catch((err) => err)
    expect(error).toBeInstanceOf(ChainError)
    expect(error.shortMessage).toBe('The node could not trace the operation: transaction not found')
  })
  it("an answer without a call trace (anvil's empty struct-log trace of a transaction it no longer keeps) is refused, not read as a call that did nothing", async () => {
    const emptyStructLogs = { failed: false, gas: 0, returnValue: '0x', structLogs: [] }
    const error = await traceTransactionFrames(chainReturning(emptyStructLogs), hash).catch((err) => err)
    expect(error).toBeInstanceOf(ChainError)
    expect(error.shortMessage).toBe(
      'The node answered debug_traceTransaction without a call trace (an object with failed, gas, returnValue, ' +
        'structLogs), so the operation cannot be explained',
    )
    const none = await traceCallFrames(chainReturning(null), call).catch((err) => err)
    expect(none.shortMessage).toBe(
      'The node answered debug_traceCall without a call trace (null), so the operation cannot be explained',
    )
  })

  it('a callTracer frame is answered as the node gave it', async () => {
    const frame = {
      type: 'CALL',
      from: call.to,
      to: call.to,
      input: '0x1fad948c',
      gas: '0x1',
      gasUsed: '0x1',
    }
    expect(await traceTransactionFrames(chainReturning(frame), hash)).toBe(frame)
    expect(await traceCallFrames(chainReturning(frame), call)).toBe(frame)
  })
})
