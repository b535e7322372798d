import { createGunzip } from 'node:zlib'
import type { NodeRequest, RpcResponseJson } from '../node/nodeRpcError'
import { writeFileAtomic } from '../writeFileAtomic'

const DUMP_TIMEOUT_MS = 10_000
const HEX_RESULT = '"result":"0x'

/** Dumps anvil's state (`anvil_dumpState`) to `statePath` atomically, in the plain JSON `--state` loads. */
export async function dumpState(request: NodeRequest, statePath: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const result = await Promise.race([
    request('anvil_dumpState', [], readDumpBody),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`anvil_dumpState did not answer within ${DUMP_TIMEOUT_MS / 1000} s`)),
        DUMP_TIMEOUT_MS,
      )
    }),
  ]).finally(() => clearTimeout(timer))
  const bytes = Buffer.isBuffer(result)
    ? result
    : typeof result === 'string' && result.startsWith('0x')
      ? Buffer.from(result.slice(2), 'hex')
      : undefined
  if (!bytes || bytes.length === 0) throw new Error('anvil_dumpState returned no state')
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    await writeFileAtomic(statePath, bytes)
    return
  }
  // anvil_dumpState returns gzip; --state loads plain JSON. Unzipped as it is written (zlib's thread pool, off the
  // event loop): the JSON holds every block and transaction (about 15 KB per operation, 190 MB after 12,800
  // operations); unzipping a 124 MB one whole took the service from 220 to 430 MB of memory (measured).
  const json = createGunzip()
  json.end(bytes)
  await writeFileAtomic(statePath, json)
}

/**
 * The dump's bytes decoded straight from the response text: its hex is megabytes (about 2 KB per operation the
 * chain has seen), which JSON.parse would copy once more before decoding. Anything else goes to JSON.parse.
 */
function readDumpBody(text: string): RpcResponseJson {
  const at = text.indexOf(HEX_RESULT)
  const end = at === -1 ? -1 : text.indexOf('"', at + HEX_RESULT.length)
  if (end === -1) return JSON.parse(text)
  return { result: Buffer.from(text.slice(at + HEX_RESULT.length, end), 'hex') }
}
