import type { PublicClient } from 'viem'

/** Dev methods that change chain state without mining a block (the state saver must notice them). */
const STATE_CHANGING_DEV_METHOD =
  /^(anvil|hardhat)_(set|impersonate|stopImpersonating|loadState|reset)|^evm_(increaseTime|setNextBlockTimestamp)/

let devStateVersion = 0

/** Increases whenever a dev method changed state without a block; the embedded node's state saver reads it. */
export function getDevStateVersion(): number {
  return devStateVersion
}

/** Sends a raw JSON-RPC request (node-specific methods that viem does not type, e.g. anvil_setCode). */
export async function requestRpc<T = unknown>(
  client: PublicClient,
  method: string,
  params: unknown[] = [],
): Promise<T> {
  const request = client.request as unknown as (args: { method: string; params: unknown[] }) => Promise<T>
  const result = await request({ method, params })
  if (STATE_CHANGING_DEV_METHOD.test(method)) devStateVersion++
  return result
}
