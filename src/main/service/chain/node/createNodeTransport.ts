import { http, type Transport } from 'viem'
import { createHttpRequest } from './createHttpRequest'
import { createIpcPool } from './createIpcPool'
import { isConnectionError, type NodeRequest } from './nodeRpcError'
import { transportOf } from './transportOf'

export type CreateNodeTransportParameters = {
  rpcUrl: string
  /** The node's IPC endpoint (the embedded anvil's `--ipc` path): preferred, HTTP is the fallback. */
  ipcPath?: string
}

export type NodeTransport = {
  transport: Transport
  /** Sends one call (the same path viem clients on `transport` take). */
  request: NodeRequest
  /** Closes the IPC connection and the keep-alive sockets. */
  close: () => void
}

/** After the IPC endpoint failed to connect, calls go over HTTP for this long before IPC is tried again. */
const IPC_RETRY_AFTER_MS = 1000
/**
 * IPC connections to the embedded anvil, which answers each connection's calls in order (createIpcPool). Safe
 * mode's traced validations take 60-100 ms each: with one connection everything queued behind them (16-client
 * safe bench, two alternating runs each: send p50 597-657 → 247-320 ms, send-to-receipt 1.02-1.31 → 0.59-0.74 s;
 * unsafe mode unchanged in ten).
 */
const IPC_CONNECTIONS = 4

/**
 * The transport every viem client of the chain uses. Every UserOperation costs several node calls, so the
 * cost of one call matters: the embedded anvil is reached over its IPC socket (a few connections; about 0.1 ms
 * of CPU per call against 0.3 ms for keep-alive node:http and 1 ms for fetch), other nodes over node:http(s)
 * with keep-alive.
 * A call that loses the IPC connection (anvil restarting) is sent again over HTTP, which retries a refused
 * connection. Other URL schemes (ws) keep viem's own transport.
 */
export function createNodeTransport({ rpcUrl, ipcPath }: CreateNodeTransportParameters): NodeTransport {
  if (!/^https?:\/\//i.test(rpcUrl)) {
    const transport = http(rpcUrl, { retryCount: 2, retryDelay: 100, timeout: 30_000 })
    const client = transport({ retryCount: 0 })
    return {
      transport,
      request: (method, params) => client.request({ method, params } as never),
      close: () => {},
    }
  }
  const overHttp = createHttpRequest(rpcUrl)
  const overIpc = ipcPath ? createIpcPool(ipcPath, IPC_CONNECTIONS) : undefined
  let ipcDownUntil = 0
  const request: NodeRequest = async (method, params, readBody) => {
    if (overIpc && Date.now() >= ipcDownUntil) {
      try {
        return await overIpc(method, params, readBody)
      } catch (err) {
        if (!isConnectionError(err)) throw err
        ipcDownUntil = Date.now() + IPC_RETRY_AFTER_MS
      }
    }
    return overHttp(method, params, readBody)
  }
  return {
    transport: transportOf(request),
    request,
    close() {
      overIpc?.close()
      overHttp.close()
    },
  }
}
