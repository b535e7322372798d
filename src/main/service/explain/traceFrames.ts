import type { Hex, RpcStateOverride } from 'viem'
import { isMethodMissing } from '../chain/node/detectNodeCapabilities'
import { requestRpc } from '../chain/node/requestRpc'
import { type TraceCallRequest, traceCall } from '../chain/node/traceCall'
import type { Chain } from '../chain/types'
import { type AppErrorOptions, ChainError, RpcError } from '../errors'
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

/** A trace the node failed; `nodeMessage` is the node's own words (its error's first line). */
export class TraceFailedError extends ChainError {
  constructor(
    readonly nodeMessage: string,
    options: AppErrorOptions,
  ) {
    super(`The node could not trace the operation: ${nodeMessage}`, options)
  }
}

function traceFailed(method: string, err: unknown): Error {
  if (isMethodMissing(err)) return traceUnavailable(method, err)
  if (err instanceof ChainError) return err
  return new TraceFailedError(String((err as Error).message).split('\n')[0]!, { cause: err })
}

/**
 * The node's answer when it is a callTracer frame (a call's type, sender and input); anything else is refused, never
 * read as a call that did nothing. anvil answers debug_traceTransaction of a transaction it no longer keeps (past
 * its `--transaction-block-keeper` blocks) with an empty struct-log trace (`{"failed":false,"gas":0,"structLogs":[]}`),
 * not with an error: read as a frame, it is a handleOps that called nothing and emitted nothing.
 */
function requireCallFrame(answer: unknown, method: string): TracedFrame {
  const frame = answer as Partial<TracedFrame> | null
  if (
    frame &&
    typeof frame === 'object' &&
    typeof frame.type === 'string' &&
    typeof frame.from === 'string' &&
    typeof frame.input === 'string'
  )
    return frame as TracedFrame
  const shape =
    frame && typeof frame === 'object'
      ? `an object with ${Object.keys(frame).join(', ') || 'no fields'}`
      : String(frame)
  throw new ChainError(
    `The node answered ${method} without a call trace (${shape}), so the operation cannot be explained`,
  )
}

/** A mined transaction's call tree with its logs (`debug_traceTransaction`, callTracer). */
export async function traceTransactionFrames(chain: Chain, transactionHash: Hex): Promise<TracedFrame> {
  let answer: unknown
  try {
    answer = await requestRpc<unknown>(chain.publicClient, 'debug_traceTransaction', [
      transactionHash,
      CALL_TRACER,
    ])
  } catch (err) {
    throw traceFailed('debug_traceTransaction', err)
  }
  return requireCallFrame(answer, 'debug_traceTransaction')
}

/** A call's tree with its logs against the latest block, changing nothing (`debug_traceCall`, callTracer). */
export async function traceCallFrames(
  chain: Chain,
  request: TraceCallRequest,
  stateOverrides?: RpcStateOverride,
): Promise<TracedFrame> {
  let answer: unknown
  try {
    answer = await traceCall<unknown>(chain, request, { ...CALL_TRACER, stateOverrides })
  } catch (err) {
    throw traceFailed('debug_traceCall', err)
  }
  return requireCallFrame(answer, 'debug_traceCall')
}
