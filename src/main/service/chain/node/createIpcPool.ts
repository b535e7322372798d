import { createIpcRequest, type IpcRequest } from './createIpcRequest'
import type { NodeRequest } from './nodeRpcError'

/**
 * Several IPC connections to one node; each call goes to the connection with the fewest calls in flight (the
 * first one whenever it is idle, so an unloaded service keeps to one connection). anvil answers the calls
 * of one connection one after another: on a single connection an `eth_blockNumber` sent while a
 * `debug_traceCall` runs waits the whole trace (160 ms with the ERC-7562 tracer, measured), while on a second
 * connection it is answered in under a millisecond. Each connection opens on its first call.
 */
export function createIpcPool(path: string, size: number): IpcRequest {
  const connections = Array.from({ length: Math.max(1, size) }, () => createIpcRequest(path))
  const request: NodeRequest = (method, params, readBody) => {
    let chosen = connections[0] as IpcRequest
    for (const connection of connections) {
      if (connection.inFlight() < chosen.inFlight()) chosen = connection
    }
    return chosen(method, params, readBody)
  }
  return Object.assign(request, {
    inFlight: () => connections.reduce((sum, connection) => sum + connection.inFlight(), 0),
    close() {
      for (const connection of connections) connection.close()
    },
  })
}
