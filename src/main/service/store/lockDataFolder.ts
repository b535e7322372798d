import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import path from 'node:path'
import { StartupError } from '../errors'
import { isProcessAlive } from '../isProcessAlive'

export type DataFolderLock = { release: () => void }

/**
 * Takes an exclusive lock on a data folder so two service instances never write the same store.
 * A lock left behind by a dead process (crash, kill -9) is taken over.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  const lockPath = path.join(dataDir, 'opstation.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return {
        release: () => {
          if (released) return
          released = true
          try {
            if (readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath)
          } catch {}
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = readLockHolder(lockPath)
      if (holder !== undefined && holder !== process.pid && isProcessAlive(holder)) {
        throw new StartupError(
          `The data folder ${dataDir} is in use by another Opstation instance (pid ${holder}). Stop it or use another --data-dir.`,
        )
      }
      try {
        unlinkSync(lockPath)
      } catch {}
    }
  }
  throw new StartupError(`Could not lock the data folder ${dataDir}`)
}

function readLockHolder(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10)
    return Number.isFinite(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}
