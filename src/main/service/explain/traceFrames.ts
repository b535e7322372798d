import type { Hex, RpcStateOverride } from 'viem'
import { isMethodMissing } from '../chain/node/detectNodeCapabilities'
import { requestRpc } from '../chain/node/requestRpc'
import { type TraceCallRequest, traceCall } from '../chain/node/traceCall'
import type { Chain } from '../chain/types'
import { ChainError, RpcError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import type { TracedFrame } from './types'

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } }

/** The node cannot trace: what the explanation cannot show, in the error clients read. */
function traceUnavailable(method: string, err: unknown): RpcError {
  return new RpcError(
    `The chain's node does not serve ${method}, so the operation cannot be explained (phases, call tree, decoded ` +
      'reason, events and balance changes all come from its call trace); use the embedded chain or a node with ' +
      'debug_traceCall and debug_traceTransaction (anvil, geth, reth)',
    RpcCode.resourceUnavailable,
    { cause: err },
  )
}

function traceFailed(method: string, err: unknown): Error {
  if (isMethodMissing(err)) return traceUnavailable(method, err)
  if (err instanceof ChainError) return err
  return new ChainError(
    `The node could not trace the operation: ${String((err as Error).message).split('\n')[0]}`,
    {
      cause: err,
    },
  )
}

/** A mined transaction's call tree with its logs (`debug_traceTransaction`, callTracer). */
export async function traceTransactionFrames(chain: Chain, transactionHash: Hex): Promise<TracedFrame> {
  try {
    return await requestRpc<TracedFrame>(chain.publicClient, 'debug_traceTransaction', [
      transactionHash,
      CALL_TRACER,
    ])
  } catch (err) {
    throw traceFailed('debug_traceTransaction', err)
  }
}

/** A call's tree with its logs against the latest block, changing nothing (`debug_traceCall`, callTracer). */
export async function traceCallFrames(
  chain: Chain,
  request: TraceCallRequest,
  stateOverrides?: RpcStateOverride,
): Promise<TracedFrame> {
  try {
    return await traceCall<TracedFrame>(chain, request, { ...CALL_TRACER, stateOverrides })
  } catch (err) {
    throw traceFailed('debug_traceCall', err)
  }
}
