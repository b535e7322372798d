import { existsSync, readdirSync, readFileSync } from 'node:fs'

/** Linux's process table; elsewhere (macOS, Windows) a process's existence is all we can tell. */
const HAS_PROC = existsSync('/proc/self/stat')

/**
 * Whether a process is running: it exists (EPERM means it exists under another user) and has not exited. A
 * hard-killed process nobody reaped (a container without an init) still answers kill(pid, 0), as a zombie; but its
 * main thread turns zombie before its other threads have exited, and those still hold its files and ports (a
 * SIGKILLed anvil's port stays taken for milliseconds, longer on a loaded machine): it has exited only once its main
 * thread is a zombie and alone.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  if (!HAS_PROC) return true
  try {
    if (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z') return true
    return readdirSync(`/proc/${pid}/task`).length > 1
  } catch {
    // Reaped meanwhile.
    return false
  }
}
