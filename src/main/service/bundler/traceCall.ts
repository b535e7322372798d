import type { Address, Hex, PublicClient, RpcStateOverride } from 'viem'
import { requestRpc } from '../chain/node/requestRpc'

/** One frame of geth's `callTracer` output. */
export type CallFrame = {
  type: string
  from: Address
  to?: Address
  gas: Hex
  gasUsed: Hex
  input: Hex
  output?: Hex
  error?: string
  revertReason?: string
  value?: Hex
  calls?: CallFrame[]
}

export type TraceCallParameters = {
  to: Address
  data: Hex
  from?: Address
  gas: bigint
  stateOverride?: RpcStateOverride
}

/** `debug_traceCall` with geth's callTracer (anvil and geth both serve it): the call tree with gas per frame. */
export function traceCallFrames(client: PublicClient, call: TraceCallParameters): Promise<CallFrame> {
  return requestRpc<CallFrame>(client, 'debug_traceCall', [
    toRpcCall(call),
    'latest',
    { tracer: 'callTracer', ...(call.stateOverride ? { stateOverrides: call.stateOverride } : {}) },
  ])
}

/** `debug_traceCall` with a geth JS tracer (source text); returns whatever the tracer's `result()` returns. */
export function traceCallWithTracer<T>(
  client: PublicClient,
  call: TraceCallParameters,
  tracer: string,
): Promise<T> {
  return requestRpc<T>(client, 'debug_traceCall', [
    toRpcCall(call),
    'latest',
    { tracer, ...(call.stateOverride ? { stateOverrides: call.stateOverride } : {}) },
  ])
}

function toRpcCall(call: TraceCallParameters): Record<string, string> {
  const out: Record<string, string> = { to: call.to, data: call.data, gas: `0x${call.gas.toString(16)}` }
  if (call.from) out.from = call.from
  return out
}
