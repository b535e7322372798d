import { gunzipSync } from 'node:zlib'
import { writeFileAtomic } from '../writeFileAtomic'

/** Dumps anvil's state (`anvil_dumpState`) to `statePath` atomically, in the plain JSON `--state` loads. */
export async function dumpState(rpcUrl: string, statePath: string): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_dumpState', params: [] }),
    signal: AbortSignal.timeout(10_000),
  })
  const body = (await res.json()) as { result?: string; error?: { message: string } }
  if (!body.result) throw new Error(`anvil_dumpState failed: ${body.error?.message ?? 'no result'}`)
  const bytes = Buffer.from(body.result.slice(2), 'hex')
  // anvil_dumpState returns gzip; --state loads plain JSON.
  const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes
  await writeFileAtomic(statePath, json)
}
