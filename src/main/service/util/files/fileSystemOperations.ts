import {
  chmodSync,
  closeSync,
  createWriteStream,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { chmod, copyFile, open, rename, rm, writeFile } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/**
 * The file-system operations an atomic write is made of, one per step, so that a test can inject them (record their
 * order, cut the sequence short as a power cut would). `writeFileAtomic` and `writeFileAtomicSync` take them.
 */
export type FileSystemOperations = {
  /** Creates (or truncates) `path` with `data` (a stream is written as it comes), mode `mode`. */
  writeFile: (path: string, data: string | Buffer | Readable, mode: number) => Promise<void>
  /** Copies `from` to `to` (created with mode `mode`). */
  copyFile: (from: string, to: string, mode: number) => Promise<void>
  /** fsync: the file's data is on the disk when it resolves. */
  syncFile: (path: string) => Promise<void>
  rename: (from: string, to: string) => Promise<void>
  /** fsync of a folder: the names it holds (a rename into it) are on the disk when it resolves. */
  syncFolder: (path: string) => Promise<void>
  /** Removes a file; a missing one is no error. */
  remove: (path: string) => Promise<void>
}

/** The same operations, synchronous (the desktop shell saves its settings while the app quits). */
export type FileSystemOperationsSync = {
  writeFile: (path: string, data: string | Buffer, mode: number) => void
  syncFile: (path: string) => void
  rename: (from: string, to: string) => void
  syncFolder: (path: string) => void
  remove: (path: string) => void
}

/**
 * Errors of an fsync on a folder that mean "not supported here" (some file systems, and Windows, which cannot open a
 * folder for it): the rename stands as the file system keeps it.
 */
const FOLDER_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM', 'ENOTSUP', 'EBADF'])

function ignoreUnsupportedFolderSync(err: unknown): void {
  if (!FOLDER_SYNC_UNSUPPORTED.has((err as NodeJS.ErrnoException).code ?? '')) throw err
}

/** Node's file system. */
export const nodeFileSystem: FileSystemOperations = {
  writeFile: async (path, data, mode) => {
    if (data instanceof Readable) {
      const out = createWriteStream(path, { mode })
      // A source that fails before the file is open rejects the pipeline at once, while the stream still creates the
      // file: the failure is answered once the stream has closed, so the caller's clean-up finds the file it removes.
      const closed = new Promise<void>((resolve) => out.once('close', resolve))
      try {
        await pipeline(data, out)
      } catch (err) {
        await closed
        throw err
      }
    } else await writeFile(path, data, { mode })
    // The mode a file is created with goes through the umask: set it as asked.
    await chmod(path, mode)
  },
  copyFile: async (from, to, mode) => {
    await copyFile(from, to)
    await chmod(to, mode)
  },
  syncFile: async (path) => {
    const handle = await open(path, 'r+')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  },
  rename: (from, to) => rename(from, to),
  syncFolder: async (path) => {
    if (process.platform === 'win32') return
    try {
      const handle = await open(path, 'r')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    } catch (err) {
      ignoreUnsupportedFolderSync(err)
    }
  },
  remove: (path) => rm(path, { force: true }),
}

/** Node's file system, synchronous. */
export const nodeFileSystemSync: FileSystemOperationsSync = {
  writeFile: (path, data, mode) => {
    writeFileSync(path, data, { mode })
    chmodSync(path, mode)
  },
  syncFile: (path) => {
    const fd = openSync(path, 'r+')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  },
  rename: (from, to) => renameSync(from, to),
  syncFolder: (path) => {
    if (process.platform === 'win32') return
    try {
      const fd = openSync(path, 'r')
      try {
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    } catch (err) {
      ignoreUnsupportedFolderSync(err)
    }
  },
  remove: (path) => rmSync(path, { force: true }),
}
