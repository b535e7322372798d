import { readFileSync } from 'node:fs'

/** What tells one process from another on this machine, beyond its pid (which the system reuses). */
export type ProcessIdentity = {
  /** When the process started, in clock ticks since boot (`/proc/<pid>/stat` field 22): a reused pid has another. */
  startTime: string
  /** Its arguments, program first. */
  commandLine: string[]
}

/**
 * The identity of a running process, from /proc (Linux). undefined where there is no /proc (macOS, Windows) or the
 * process is gone: there is then no cheap, reliable way to tell more than that a process with this pid exists.
 */
export function readProcessIdentity(pid: number): ProcessIdentity | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The fields after the command name, which is in parentheses and may itself hold ") ".
    const startTime = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[19]
    if (!startTime || !/^\d+$/.test(startTime)) return undefined
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((arg) => arg !== '')
    return { startTime, commandLine }
  } catch {
    return undefined
  }
}
