import { type Address, type Hex, numberToHex, type RpcStateOverride } from 'viem'
import type { Chain } from '../types'
import type { ReadResponseBody } from './nodeRpcError'
import { requestRpc } from './requestRpc'

export type TraceCallRequest = {
  from?: Address
  to: Address
  data?: Hex
  value?: bigint
  gas?: bigint
  gasPrice?: bigint
}

export type TraceCallOptions = {
  /** Built-in tracer name (`callTracer`, `prestateTracer`) or the source of a geth JS tracer object. */
  tracer?: string
  tracerConfig?: Record<string, unknown>
  /** geth-style state overrides (RPC format). */
  stateOverrides?: RpcStateOverride
  blockTag?: 'latest' | 'pending' | Hex
  /** geth tracer timeout, e.g. `'10s'`. */
  timeout?: string
  /** Struct-logger options when no tracer is given. */
  enableMemory?: boolean
  disableStorage?: boolean
  disableStack?: boolean
  /** Most struct-log steps to return. */
  limit?: number
  /** Reads the response text in place of JSON.parse (see requestRpc). */
  readBody?: ReadResponseBody
}

/** `debug_traceCall` (anvil and geth run JS tracers; EDR/hardhat only built-in ones). Returns the raw result. */
export async function traceCall<T = unknown>(
  chain: Chain,
  request: TraceCallRequest,
  options: TraceCallOptions = {},
): Promise<T> {
  const call: Record<string, string> = { to: request.to }
  if (request.from) call.from = request.from
  if (request.data) call.data = request.data
  if (request.value !== undefined) call.value = numberToHex(request.value)
  if (request.gas !== undefined) call.gas = numberToHex(request.gas)
  if (request.gasPrice !== undefined) call.gasPrice = numberToHex(request.gasPrice)
  const config: Record<string, unknown> = {}
  if (options.tracer) config.tracer = options.tracer
  if (options.tracerConfig) config.tracerConfig = options.tracerConfig
  if (options.stateOverrides) config.stateOverrides = options.stateOverrides
  if (options.timeout) config.timeout = options.timeout
  if (options.enableMemory !== undefined) config.enableMemory = options.enableMemory
  if (options.disableStorage !== undefined) config.disableStorage = options.disableStorage
  if (options.disableStack !== undefined) config.disableStack = options.disableStack
  if (options.limit !== undefined) config.limit = options.limit
  return requestRpc<T>(
    chain.publicClient,
    'debug_traceCall',
    [call, options.blockTag ?? 'latest', config],
    options.readBody,
  )
}
