import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { writeFileAtomic } from '../../util/files/writeFileAtomic'
import type { NodeRequest, RpcResponseJson } from '../node/nodeRpcError'
import { HISTORY_BLOCK_BYTES, historyBlocks } from './spawnAnvil'
import {
  createStateDumpTrimStream,
  StateDumpLayoutError,
  type StateDumpTrim,
  type StateDumpTrimParameters,
} from './trimStateDump'

const DUMP_TIMEOUT_MS = 10_000
const HEX_RESULT = '"result":"0x'

/**
 * Dumps anvil's state (`anvil_dumpState`) to `statePath` atomically, in the plain JSON `--state` loads, with the
 * blocks (and their transactions and receipts) of the recent history only: by default the newest HISTORY_BLOCKS
 * within HISTORY_BLOCK_BYTES, and the genesis block (trimStateDump.ts). anvil's dump holds every block it keeps.
 * Returns what was kept and dropped.
 */
export async function dumpState(
  request: NodeRequest,
  statePath: string,
  trim: Partial<StateDumpTrimParameters> = {},
): Promise<StateDumpTrim> {
  const keepBlocks = trim.keepBlocks ?? historyBlocks()
  const keepBlockBytes = trim.keepBlockBytes ?? HISTORY_BLOCK_BYTES
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
  const parameters = { keepBlocks, keepBlockBytes, firstBlock: trim.firstBlock }
  try {
    return await writeTrimmed(bytes, statePath, { ...parameters, headFirst: true })
  } catch (err) {
    // Not anvil's order after all: read whole (the file was not replaced).
    if (!(err instanceof StateDumpLayoutError)) throw err
    return writeTrimmed(bytes, statePath, { ...parameters, headFirst: false })
  }
}

/** Bytes gunzip gives at a time: fewer, larger pieces for the trim than zlib's 16 KB. */
const GUNZIP_CHUNK_BYTES = 256 * 1024

/** Writes the dump (gzip or plain JSON bytes) to `statePath` atomically, trimmed as it is written. */
async function writeTrimmed(
  bytes: Buffer,
  statePath: string,
  parameters: Parameters<typeof createStateDumpTrimStream>[0],
): Promise<StateDumpTrim> {
  const trimmed = createStateDumpTrimStream(parameters)
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    await writeFileAtomic(statePath, Readable.from([bytes]).pipe(trimmed))
    return trimmed.result()
  }
  // anvil_dumpState returns gzip; --state loads plain JSON. Unzipped and trimmed as it is written (zlib's thread
  // pool, off the event loop): anvil's JSON holds every block it keeps (about 15 KB per operation with the
  // transactions, 190 MB after 12,800 operations); unzipping a 124 MB one whole took the service from 220 to 430 MB
  // of memory (measured).
  const json = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES })
  json.on('error', (err) => trimmed.destroy(err))
  json.end(bytes)
  await writeFileAtomic(statePath, json.pipe(trimmed))
  return trimmed.result()
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
