import path from 'node:path'
import type { Readable } from 'node:stream'
import {
  type FileSystemOperations,
  type FileSystemOperationsSync,
  nodeFileSystem,
  nodeFileSystemSync,
} from './fileSystemOperations'
import { temporaryFileName } from './temporaryFileName'

export type WriteFileAtomicOptions = {
  /** 0600 unless told otherwise: what the service writes is the user's alone. */
  mode?: number
  /**
   * Keep the file being replaced as `<path>.previous` (previousCopyPath), itself written atomically before the new
   * file replaces the old one: a file that must never be lost (the keys) always has a complete copy beside it.
   */
  keepPrevious?: boolean
  /** The operations the write is made of (tests inject them). */
  fileSystem?: FileSystemOperations
}

/** Where `writeFileAtomic(file, …, { keepPrevious: true })` keeps the file it replaced. */
export function previousCopyPath(file: string): string {
  return `${file}.previous`
}

/**
 * The one atomic write of the service: a temporary file in the same folder, fsync of it, rename over `file`, fsync
 * of the folder. A crash or a power cut at any point leaves the old file or the new one, each complete: the data is
 * on the disk before the name points at it, and the name is on the disk when the call resolves. A failed write
 * removes its temporary file (one left by a kill is removed at the next start: protectDataFolder). A stream is
 * written as it comes, never held whole in memory.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Buffer | Readable,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const fs = options.fileSystem ?? nodeFileSystem
  const mode = options.mode ?? 0o600
  if (options.keepPrevious) await copyPrevious(file, mode, fs)
  await replaceAtomically(file, fs, (tmp) => fs.writeFile(tmp, data, mode))
}

/** Copies `from` to `to` with writeFileAtomic's sequence (a crash leaves the old `to` or a complete copy). */
export async function copyFileAtomic(
  from: string,
  to: string,
  options: { mode?: number; fileSystem?: FileSystemOperations } = {},
): Promise<void> {
  const fs = options.fileSystem ?? nodeFileSystem
  await replaceAtomically(to, fs, (tmp) => fs.copyFile(from, tmp, options.mode ?? 0o600))
}

/** writeFileAtomic's sequence, synchronous (same steps, same guarantees; no stream, no kept copy). */
export function writeFileAtomicSync(
  file: string,
  data: string | Buffer,
  options: { mode?: number; fileSystem?: FileSystemOperationsSync } = {},
): void {
  const fs = options.fileSystem ?? nodeFileSystemSync
  const mode = options.mode ?? 0o600
  const tmp = temporaryFileName(file)
  try {
    fs.writeFile(tmp, data, mode)
    fs.syncFile(tmp)
    fs.rename(tmp, file)
  } catch (err) {
    fs.remove(tmp)
    throw err
  }
  fs.syncFolder(path.dirname(file))
}

/** Copies `file`, as it is on the disk, to its previous copy (atomically); nothing when there is no file yet. */
async function copyPrevious(file: string, mode: number, fs: FileSystemOperations): Promise<void> {
  try {
    await copyFileAtomic(file, previousCopyPath(file), { mode, fileSystem: fs })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
}

async function replaceAtomically(
  file: string,
  fs: FileSystemOperations,
  writeTemporary: (tmp: string) => Promise<void>,
): Promise<void> {
  const tmp = temporaryFileName(file)
  try {
    await writeTemporary(tmp)
    await fs.syncFile(tmp)
    await fs.rename(tmp, file)
  } catch (err) {
    await fs.remove(tmp)
    throw err
  }
  await fs.syncFolder(path.dirname(file))
}
