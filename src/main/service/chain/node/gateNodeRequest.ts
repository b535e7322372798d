import type { Transport } from 'viem'
import type { NodeRequest } from './nodeRpcError'
import { transportOf } from './transportOf'

/** What a call made while the chain restarts fails with (isNodeUnreachable reads it as an outage: 503). */
export const CHAIN_RESTARTING_MESSAGE = 'the chain is restarting'

const restartingError = (cause?: unknown) =>
  Object.assign(new Error(CHAIN_RESTARTING_MESSAGE, cause === undefined ? undefined : { cause }), {
    code: 'ECHAINRESTARTING',
  })

/**
 * The node's request, refused while the embedded node restarts: from its exit until it answers again with its
 * state complete (contracts verified or redeployed). In between, the new node may answer without the contracts or
 * balances the service's calls expect and fail them for the wrong reason; they fail as an outage instead. A call
 * that began before the exit and ends after it (the transport retries a refused connection, and may reach the new
 * node) fails the same way. `readEpoch` gives the number of the node's current run, or undefined while it
 * restarts. Refusing rather than waiting keeps the restart's own calls, which take the ungated request, from
 * waiting behind a gated one that holds a nonce. Returns the gated request and a viem transport over it.
 */
export function gateNodeRequest(
  request: NodeRequest,
  readEpoch: () => number | undefined,
): { request: NodeRequest; transport: Transport } {
  const gated: NodeRequest = async (method, params, readBody) => {
    const epoch = readEpoch()
    if (epoch === undefined) throw restartingError()
    let result: unknown
    try {
      result = await request(method, params, readBody)
    } catch (err) {
      throw readEpoch() === epoch ? err : restartingError(err)
    }
    if (readEpoch() !== epoch) throw restartingError()
    return result
  }
  return {
    request: gated,
    transport: transportOf(gated),
  }
}
