import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import path from 'node:path'
import { StartupError } from '../errors'
import { temporaryFileName } from '../util/files/temporaryFileName'
import { isProcessAlive } from '../util/process/isProcessAlive'
import { type ProcessIdentity, readProcessIdentity } from '../util/process/readProcessIdentity'

export const LOCK_FILE_NAME = 'opstation.lock'

export type DataFolderLock = { release: () => void }

/** What the lock file says about the instance holding it. Locks of earlier versions hold only the pid. */
type LockHolder = { pid: number } & Partial<ProcessIdentity>

/**
 * Takes an exclusive lock on a data folder so two service instances never write the same store. The lock names
 * the holder (pid, and where /proc tells them, its start time and command line). A lock whose holder is gone
 * (crash, kill -9), or whose pid the system has since given to another process, is taken over.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  const lockPath = path.join(dataDir, LOCK_FILE_NAME)
  const identity = readProcessIdentity(process.pid)
  const content = JSON.stringify({ pid: process.pid, ...identity })
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createWithContent(lockPath, content)) {
      let released = false
      return {
        release: () => {
          if (released) return
          released = true
          try {
            if (readFileSync(lockPath, 'utf8') === content) unlinkSync(lockPath)
          } catch {}
        },
      }
    }
    const holder = readLockHolder(lockPath)
    if (holder && isHeld(holder)) {
      throw new StartupError(
        `The data folder ${dataDir} is in use by another Opstation instance (pid ${holder.pid}). Stop it or use another --data-dir.`,
      )
    }
    try {
      unlinkSync(lockPath)
    } catch {}
  }
  throw new StartupError(`Could not lock the data folder ${dataDir}`)
}

/**
 * Creates `file` holding `content`, or returns false when it exists. The content is written to a temporary file
 * first and linked into place, so no other instance ever reads a lock that exists but is still empty.
 */
function createWithContent(file: string, content: string): boolean {
  const tmp = temporaryFileName(file)
  const fd = openSync(tmp, 'wx', 0o600)
  try {
    writeSync(fd, content)
  } finally {
    closeSync(fd)
  }
  try {
    linkSync(tmp, file)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    return false
  } finally {
    unlinkSync(tmp)
  }
}

/**
 * Whether the instance named by the lock still runs. A live pid alone proves nothing: after a crash and a reboot,
 * or a long time, the system gives that pid to another process. As the stale-anvil check does (stopStaleAnvil.ts),
 * the process is identified from /proc: its start time must be the one the lock recorded (the very process that
 * took the lock); a lock of an earlier version, which recorded no start time, needs a process that runs Opstation.
 * Without /proc (macOS, Windows) a live pid is taken to be the holder.
 */
function isHeld(holder: LockHolder): boolean {
  if (!isProcessAlive(holder.pid)) return false
  const running = readProcessIdentity(holder.pid)
  if (holder.startTime !== undefined) return running === undefined || running.startTime === holder.startTime
  // A lock of an earlier version naming this process's pid was left by a previous process (this one writes more).
  if (holder.pid === process.pid) return false
  return (
    running === undefined || running.commandLine.some((arg) => /opstation|cliMain/i.test(path.basename(arg)))
  )
}

function readLockHolder(lockPath: string): LockHolder | undefined {
  let text: string
  try {
    text = readFileSync(lockPath, 'utf8').trim()
  } catch {
    return undefined
  }
  if (/^\d+$/.test(text)) return { pid: Number(text) }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>
    if (!Number.isSafeInteger(parsed.pid) || (parsed.pid ?? 0) <= 0) return undefined
    return {
      pid: parsed.pid as number,
      startTime: typeof parsed.startTime === 'string' ? parsed.startTime : undefined,
      commandLine: Array.isArray(parsed.commandLine) ? parsed.commandLine.map(String) : undefined,
    }
  } catch {
    return undefined
  }
}
