import http from 'node:http'
import https from 'node:https'
import {
  isConnectionError,
  type NodeRequest,
  type ReadResponseBody,
  type RpcResponseJson,
  readRpcResponse,
} from './nodeRpcError'

export type HttpRequest = NodeRequest & { close: () => void }

const TIMEOUT_MS = 30_000
/** A node that refuses the connection may be restarting (embedded anvil): tries again this often. */
const REFUSED_RETRIES = 2
const REFUSED_RETRY_DELAY_MS = 100

/**
 * JSON-RPC over node:http(s) with keep-alive sockets. fetch (undici) costs about 0.8 ms of CPU per call on top of
 * the node's own work, node:http a fraction of that.
 */
export function createHttpRequest(url: string): HttpRequest {
  const target = new URL(url)
  const lib = target.protocol === 'https:' ? https : http
  const agent = new lib.Agent({ keepAlive: true, maxSockets: 64 })
  let id = 0
  const once = (body: string, readBody: ReadResponseBody) =>
    new Promise<unknown>((resolve, reject) => {
      const req = lib.request(
        {
          hostname: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          res.on('end', () => {
            let json: RpcResponseJson
            try {
              json = readBody(Buffer.concat(chunks).toString('utf8'))
            } catch {
              reject(new Error(`the node answered HTTP ${res.statusCode} without JSON`))
              return
            }
            const response = readRpcResponse(json)
            if (response.ok) resolve(response.result)
            else reject(response.error)
          })
        },
      )
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('the node did not answer within 30 s')))
      req.on('error', reject)
      req.end(body)
    })
  const request: NodeRequest = async (method, params, readBody = JSON.parse) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(body, readBody)
      } catch (err) {
        if (!isConnectionError(err) || attempt >= REFUSED_RETRIES) throw err
        // A keep-alive socket the node closed: at once; a refused connection (restarting node): a moment later.
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED')
          await new Promise((r) => setTimeout(r, REFUSED_RETRY_DELAY_MS))
      }
    }
  }
  return Object.assign(request, { close: () => agent.destroy() })
}
