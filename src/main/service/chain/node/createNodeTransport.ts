import { http, type Transport } from 'viem'
import { createHttpRequest } from './createHttpRequest'
import { createIpcPool } from './createIpcPool'
import { isConnectionError, type NodeRequest } from './nodeRpcError'
import { transportOf } from './transportOf'

export type CreateNodeTransportParameters = {
  /** The node's URL (http(s), or ws through viem's transport); not used when there is an `ipcPath`. */
  rpcUrl: string
  /**
   * The embedded anvil's IPC endpoint (`--ipc`): its only transport. Its name is new at every start of the service
   * and lies in the data folder, where anvil's HTTP port, after a crash, may be another process's.
   */
  ipcPath?: string
}

export type NodeTransport = {
  transport: Transport
  /** Sends one call (the same path viem clients on `transport` take). */
  request: NodeRequest
  /** Closes the IPC connection and the keep-alive sockets. */
  close: () => void
}

/**
 * IPC connections to the embedded anvil, which answers each connection's calls in order (createIpcPool). Safe
 * mode's traced validations take 60-100 ms each: with one connection everything queued behind them (16-client
 * safe bench, two alternating runs each: send p50 597-657 → 247-320 ms, send-to-receipt 1.02-1.31 → 0.59-0.74 s;
 * unsafe mode unchanged in ten).
 */
const IPC_CONNECTIONS = 4
/** A call whose IPC connection could not be made or was lost (anvil restarting) is sent again this often… */
const IPC_RETRIES = 2
/** …this long apart. */
const IPC_RETRY_DELAY_MS = 100

/**
 * The transport every viem client of the chain uses. Every UserOperation costs several node calls, so the
 * cost of one call matters: the embedded anvil is reached over its IPC socket only (a few connections; about 0.1 ms
 * of CPU per call against 0.3 ms for keep-alive node:http and 1 ms for fetch), other nodes over node:http(s)
 * with keep-alive. Other URL schemes (ws) keep viem's own transport.
 * Calls that found anvil's socket closed (anvil restarting) went over its HTTP port before; but a restart may find
 * that port taken by another process (another service's anvil), which would have answered them: the wrong chain. A
 * restart moves anvil to another port then (startEmbeddedNode.ts).
 */
export function createNodeTransport({ rpcUrl, ipcPath }: CreateNodeTransportParameters): NodeTransport {
  if (ipcPath) {
    const overIpc = createIpcPool(ipcPath, IPC_CONNECTIONS)
    const request: NodeRequest = async (method, params, readBody) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await overIpc(method, params, readBody)
        } catch (err) {
          if (!isConnectionError(err)) throw err
          if (attempt >= IPC_RETRIES) throw asUnreachable(err, ipcPath)
          await new Promise((r) => setTimeout(r, IPC_RETRY_DELAY_MS))
        }
      }
    }
    return { transport: transportOf(request), request, close: () => overIpc.close() }
  }
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
  return { transport: transportOf(overHttp), request: overHttp, close: () => overHttp.close() }
}

/**
 * An IPC socket that is not there (ENOENT: anvil gone, between its exit and its restart) is the node out of reach,
 * as a refused connection is (isNodeUnreachable.ts leaves ENOENT out: elsewhere it is a missing file).
 */
function asUnreachable(err: unknown, ipcPath: string): unknown {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return err
  return Object.assign(new Error(`the node's IPC endpoint ${ipcPath} is not there`), {
    code: 'ECONNREFUSED',
    cause: err,
  })
}
