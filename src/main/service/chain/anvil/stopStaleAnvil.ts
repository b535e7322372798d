import { readFile, rm, writeFile } from 'node:fs/promises'
import type { Logger } from '../../log/logger'
import { isProcessAlive } from '../../util/process/isProcessAlive'
import { readProcessIdentity } from '../../util/process/readProcessIdentity'

/**
 * An anvil left running by a service that died hard (kill -9 skips every exit hook) would keep dumping its state
 * into this data folder every --state-interval seconds, racing the new anvil. Before starting, stop the anvil
 * recorded in `pidPath` if it is still alive and still names one of `statePaths` on its command line (so a reused
 * pid is never killed).
 */
export async function stopStaleAnvil(pidPath: string, statePaths: string[], log: Logger): Promise<void> {
  const pid = Number.parseInt(await readFile(pidPath, 'utf8').catch(() => ''), 10)
  if (!Number.isInteger(pid) || pid <= 0 || !servesStateFile(pid, statePaths)) return
  log.warn({ pid }, 'stopping an embedded anvil left running by an earlier Opstation on this data folder')
  try {
    process.kill(pid, 'SIGKILL')
  } catch {}
  for (let i = 0; i < 40 && isProcessAlive(pid); i++) await new Promise((r) => setTimeout(r, 25))
  await rm(pidPath, { force: true })
}

/** Records the running anvil's pid for `stopStaleAnvil`. */
export async function recordAnvilPid(pidPath: string, pid: number): Promise<void> {
  await writeFile(pidPath, String(pid), { mode: 0o600 })
}

function servesStateFile(pid: number, statePaths: string[]): boolean {
  if (!isProcessAlive(pid)) return false
  // Linux: the command line. Elsewhere there is no cheap reliable check: leave it alone.
  const args = readProcessIdentity(pid)?.commandLine
  if (!args) return false
  return (
    args.some((a) => a.endsWith('anvil') || a.endsWith('anvil.exe')) &&
    statePaths.some((path) => args.includes(path))
  )
}
