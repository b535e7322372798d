import type { Dirent } from 'node:fs'
import { chmod, readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { isTemporaryFileName } from '../util/files/temporaryFileName'
import { listOtherChainFolders } from './dataFolder/chainFolders'

/** The service's folders inside the data folder (the desktop app's Chromium profile lives beside them). */
const SERVICE_FOLDERS = ['chain', 'sandbox']

export type ProtectDataFolderReturnType = {
  /** Temporary files of atomic writes cut short by a kill, now removed. */
  removedTemporaryFiles: string[]
  /** Files or folders whose mode could not be changed (owned by another user). */
  notProtected: string[]
}

/**
 * Makes the data folder private to the user at start: the folder and the service's folders in it 0700, their files
 * 0600 (files of earlier versions, or written by a program under a looser umask, may be 0644), and removes the
 * temporary files of atomic writes that a kill cut short. Runs once the data folder is locked: no other instance
 * writes there. Symbolic links are left alone (never followed).
 */
export async function protectDataFolder(dataDir: string): Promise<ProtectDataFolderReturnType> {
  const result: ProtectDataFolderReturnType = { removedTemporaryFiles: [], notProtected: [] }
  const posix = process.platform !== 'win32'
  const restrict = async (target: string, mode: number) => {
    if (!posix) return
    try {
      const current = (await stat(target)).mode & 0o777
      if (current !== mode) await chmod(target, mode)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') result.notProtected.push(target)
    }
  }
  const folders = [
    dataDir,
    ...SERVICE_FOLDERS.map((name) => path.join(dataDir, name)),
    ...(await listOtherChainFolders(dataDir)),
  ]
  for (const folder of folders) {
    let entries: Dirent[]
    try {
      entries = await readdir(folder, { withFileTypes: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue
      throw err
    }
    await restrict(folder, 0o700)
    for (const entry of entries) {
      const file = path.join(folder, entry.name)
      if (entry.isFile() && isTemporaryFileName(entry.name)) {
        await rm(file, { force: true })
        result.removedTemporaryFiles.push(file)
      } else if (entry.isFile() || entry.isSocket()) {
        await restrict(file, 0o600)
      }
    }
  }
  return result
}
