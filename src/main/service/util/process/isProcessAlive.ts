import { readFileSync } from 'node:fs'

/**
 * Whether a process is running: it exists (EPERM means it exists under another user) and is not a zombie — a
 * hard-killed process nobody reaped (a container without an init) still answers kill(pid, 0).
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    // No /proc (macOS, Windows): existence is all we can tell.
    return true
  }
}
