import { createWriteStream } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { temporaryFileName } from './temporaryFileName'

/**
 * Writes a file atomically: a temp file in the same folder, then rename (a crash leaves the old or new file; a
 * failed write removes the temp file; one left by a kill is removed at the next start). A stream is written as it
 * comes, never held whole in memory. Mode 0600 unless told otherwise: what the service writes is the user's alone.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Buffer | Readable,
  mode = 0o600,
): Promise<void> {
  const tmp = temporaryFileName(path)
  const options = { mode }
  try {
    if (data instanceof Readable) await pipeline(data, createWriteStream(tmp, options))
    else await writeFile(tmp, data, options)
    await rename(tmp, path)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
}
