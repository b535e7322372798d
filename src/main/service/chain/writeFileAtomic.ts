import { createWriteStream } from 'node:fs'
import { rename, rm, writeFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/**
 * Writes a file atomically: a temp file in the same folder, then rename (a crash leaves the old or new file; a
 * failed write removes the temp file). A stream is written as it comes, never held whole in memory.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Buffer | Readable,
  mode?: number,
): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
  const options = mode === undefined ? undefined : { mode }
  try {
    if (data instanceof Readable) await pipeline(data, createWriteStream(tmp, options))
    else await writeFile(tmp, data, options)
    await rename(tmp, path)
  } catch (err) {
    await rm(tmp, { force: true })
    throw err
  }
}
