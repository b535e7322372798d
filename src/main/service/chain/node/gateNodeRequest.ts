import type { Transport } from 'viem'
import type { NodeRequest } from './nodeRpcError'
import { transportOf } from './transportOf'

/** What a call fails with while the node is away; its `outage` says how (isNodeUnreachable reads it: 503). */
const awayError = (outage: string, cause?: unknown) =>
  Object.assign(new Error(outage, cause === undefined ? undefined : { cause }), {
    code: 'ECHAINAWAY',
    outage,
  })

/**
 * The node's request, refused while the node is away (the embedded node restarting, an external node unreachable,
 * a reset node being recovered). For a restart: from its exit until it answers again with its
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
  describeOutage: () => string = () => 'the chain is restarting',
): { request: NodeRequest; transport: Transport } {
  const gated: NodeRequest = async (method, params, readBody) => {
    const epoch = readEpoch()
    if (epoch === undefined) throw awayError(describeOutage())
    let result: unknown
    try {
      result = await request(method, params, readBody)
    } catch (err) {
      throw readEpoch() === epoch ? err : awayError(describeOutage(), err)
    }
    if (readEpoch() !== epoch) throw awayError(describeOutage())
    return result
  }
  return {
    request: gated,
    transport: transportOf(gated),
  }
}
