import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Chain } from '../../src/main/service/chain'
import { NodeRpcError } from '../../src/main/service/chain/node/nodeRpcError'

/**
 * An HTTP JSON-RPC URL for a chain started without the service (the service serves its guarded /rpc): anvil's own
 * HTTP port is one that fetch refuses (findAnvilPort.ts), so clients built on fetch reach it through this relay.
 */
export async function startRpcRelay(chain: Chain): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', async () => {
      const payload = JSON.parse(text)
      const answer = async (call: { id: unknown; method: string; params?: unknown[] }) => {
        try {
          return { jsonrpc: '2.0', id: call.id, result: await chain.request(call.method, call.params ?? []) }
        } catch (err) {
          if (!(err instanceof NodeRpcError)) throw err
          return {
            jsonrpc: '2.0',
            id: call.id,
            error: { code: err.code, message: err.message, data: err.data },
          }
        }
      }
      const body = Array.isArray(payload) ? await Promise.all(payload.map(answer)) : await answer(payload)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
