import { createHttpRequest, type HttpRequest } from '../src/main/service/chain/node/createHttpRequest'

export type Rpc = (url: string, method: string, params: unknown[]) => Promise<any>

/**
 * JSON-RPC to any of the service's URLs over node:http keep-alive (the service's own node client, one connection
 * pool per URL): the bench's clients must not eat the CPU they measure (fetch costs ~1 ms a call). A JSON-RPC error
 * rejects with a NodeRpcError carrying its code and message.
 */
export function createRpc(): Rpc {
  const byUrl = new Map<string, HttpRequest>()
  return (url, method, params) => {
    let request = byUrl.get(url)
    if (!request) {
      request = createHttpRequest(url)
      byUrl.set(url, request)
    }
    return request(method, params)
  }
}

/** Polls eth_getUserOperationReceipt (right away, then every intervalMs) until the receipt comes; throws if it reverted. */
export async function waitForReceipt(
  rpc: Rpc,
  bundlerUrl: string,
  hash: string,
  intervalMs = 20,
): Promise<any> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const receipt = await rpc(bundlerUrl, 'eth_getUserOperationReceipt', [hash])
    if (receipt) {
      if (receipt.success !== true) throw new Error(`operation ${hash} reverted: ${receipt.reason}`)
      return receipt
    }
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash}`)
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}
