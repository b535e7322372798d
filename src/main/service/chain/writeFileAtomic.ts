import { rename, writeFile } from 'node:fs/promises'

/** Writes a file atomically: a temp file in the same folder, then rename (a crash leaves the old or new file). */
export async function writeFileAtomic(path: string, data: string | Buffer, mode?: number): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, data, mode === undefined ? undefined : { mode })
  await rename(tmp, path)
}
