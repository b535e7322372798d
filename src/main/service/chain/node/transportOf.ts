import { custom, type Transport } from 'viem'
import type { NodeRequest } from './nodeRpcError'

/** A viem transport whose every call goes through `request` (which retries what it retries itself). */
export function transportOf(request: NodeRequest): Transport {
  return custom({ request: ({ method, params }) => request(method, params ?? []) }, { retryCount: 0 })
}
