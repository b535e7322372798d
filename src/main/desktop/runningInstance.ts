import { readFileSync } from 'node:fs'
import path from 'node:path'
import { parseServeArgs } from '../cli'
import { LOCK_FILE_NAME } from '../service/store/lockDataFolder'

/** The instance holding a data folder, as far as this process can tell. */
export type RunningInstance = {
  pid?: number
  /** Its console (`/console/`), when its address is known and it answers there. */
  consoleUrl?: string
}

/**
 * Who holds `dataDir`: the lock file names the pid and, where /proc told it, the command line. A headless
 * `opstation serve` command line gives its host and port (parseServeArgs, defaults included); the console URL is
 * offered only when a service answers `/health` there. Its port is unknown for `--port 0` or without /proc.
 */
export async function findRunningInstance(dataDir: string, probeMs = 1500): Promise<RunningInstance> {
  let lock: { pid?: unknown; commandLine?: unknown }
  try {
    const text = readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8').trim()
    lock = /^\d+$/.test(text) ? { pid: Number(text) } : JSON.parse(text)
  } catch {
    return {}
  }
  const pid = Number.isSafeInteger(lock.pid) ? (lock.pid as number) : undefined
  const commandLine = Array.isArray(lock.commandLine) ? lock.commandLine.map(String) : []
  const serve = commandLine.indexOf('serve')
  if (serve < 0) return { pid }
  let address: { host: string; port: number }
  try {
    const input = parseServeArgs(commandLine.slice(serve + 1), {})
    address = { host: input.host ?? '127.0.0.1', port: input.port ?? 0 }
  } catch {
    return { pid }
  }
  if (address.port === 0) return { pid }
  const baseUrl = serviceBaseUrl(address.host, address.port)
  return (await answersHealth(baseUrl, probeMs)) ? { pid, consoleUrl: `${baseUrl}/console/` } : { pid }
}

/** The URL a local browser reaches a service listening on host:port by (a wildcard address means this machine). */
export function serviceBaseUrl(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}`
}

/** Whether an Opstation-like service answers `GET /health` at baseUrl within ms. */
export async function answersHealth(baseUrl: string, ms = 1500): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(ms) })
    const body = (await response.json()) as { status?: unknown }
    return response.ok && body.status === 'ok'
  } catch {
    return false
  }
}
