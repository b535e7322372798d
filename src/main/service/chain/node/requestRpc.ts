import type { PublicClient } from 'viem'

/** Sends a raw JSON-RPC request (node-specific methods that viem does not type, e.g. anvil_setCode). */
export async function requestRpc<T = unknown>(
  client: PublicClient,
  method: string,
  params: unknown[] = [],
): Promise<T> {
  const request = client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<T>
  return request({ method, params })
}
