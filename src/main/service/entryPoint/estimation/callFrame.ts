import type { Address, Hex, RpcStateOverride } from 'viem'
import { type TraceCallRequest, traceCall } from '../../chain/node/traceCall'
import type { Chain } from '../../chain/types'
import { ChainError } from '../../errors'

/** One frame of geth's `callTracer` output (debug_traceCall). */
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

/**
 * Traces a simulation with geth's callTracer (the estimation loop's simulations of handleOp); a node that cannot
 * trace it is a ChainError naming the node's first line.
 */
export async function traceSimulation(
  chain: Chain,
  request: TraceCallRequest,
  stateOverrides: RpcStateOverride | undefined,
): Promise<CallFrame> {
  try {
    return await traceCall<CallFrame>(chain, request, { tracer: 'callTracer', stateOverrides })
  } catch (err) {
    throw new ChainError(
      `Gas estimation could not trace the simulation: ${(err as Error).message.split('\n')[0]}`,
      { cause: err },
    )
  }
}
