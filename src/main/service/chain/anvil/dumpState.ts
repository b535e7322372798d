import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'
import type { NodeRequest } from '../node/nodeRpcError'
import { writeFileAtomic } from '../writeFileAtomic'

const DUMP_TIMEOUT_MS = 10_000
/** Off the event loop (zlib's thread pool): a busy chain's state is megabytes, dumped every few seconds. */
const gunzipAsync = promisify(gunzip)

/** Dumps anvil's state (`anvil_dumpState`) to `statePath` atomically, in the plain JSON `--state` loads. */
export async function dumpState(request: NodeRequest, statePath: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const result = await Promise.race([
    request('anvil_dumpState', []),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`anvil_dumpState did not answer within ${DUMP_TIMEOUT_MS / 1000} s`)),
        DUMP_TIMEOUT_MS,
      )
    }),
  ]).finally(() => clearTimeout(timer))
  if (typeof result !== 'string' || !result.startsWith('0x'))
    throw new Error('anvil_dumpState returned no state')
  const bytes = Buffer.from(result.slice(2), 'hex')
  // anvil_dumpState returns gzip; --state loads plain JSON.
  const json = bytes[0] === 0x1f && bytes[1] === 0x8b ? await gunzipAsync(bytes) : bytes
  await writeFileAtomic(statePath, json)
}
