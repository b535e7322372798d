import type { NodeRequest, ReadResponseBody } from './nodeRpcError'

/** Clients whose calls go straight to the node transport (see registerNodeRequest). */
const nodeRequests = new WeakMap<object, NodeRequest>()

/**
 * Lets requestRpc send the calls of `client` straight through `request` (the node transport it was built on),
 * skipping viem's request wrapper: every operation makes several node calls, and a reverting simulation (the
 * normal end of simulateValidation) would otherwise build viem's error objects on top of the node's. Errors are
 * then the node's own (NodeRpcError with its code, message and revert data).
 */
export function registerNodeRequest(client: object, request: NodeRequest): void {
  nodeRequests.set(client, request)
}

/**
 * Sends a raw JSON-RPC request (node-specific methods that viem does not type, e.g. anvil_setCode). `readBody`
 * reads the response text in place of JSON.parse where the transport has the text (IPC and node:http).
 */
export async function requestRpc<T = unknown>(
  // Any viem client: typed loosely on purpose, since relating two PublicClient instantiations (a chain-typed one to
  // the default) costs the type checker seconds per call site.
  client: { request: unknown },
  method: string,
  params: unknown[] = [],
  readBody?: ReadResponseBody,
): Promise<T> {
  const direct = nodeRequests.get(client)
  return direct
    ? ((await direct(method, params, readBody)) as T)
    : await (client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<T>)({
        method,
        params,
      })
}
