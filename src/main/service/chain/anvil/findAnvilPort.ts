import type { Logger } from '../../log/logger'
import { findFreePort, isPortFree } from './findFreePort'

/**
 * Ports above 1023 that every browser refuses to connect to: the "bad ports" of the Fetch standard
 * (https://fetch.spec.whatwg.org/#port-blocking). No web page can reach a server on one, not even through DNS
 * rebinding, whatever its Host and Origin.
 */
export const BROWSER_BLOCKED_PORTS = [
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697,
  10080,
] as const

/**
 * Ports this process handed out in the last seconds: free when checked, not yet bound by the anvil they were given to.
 * Chains of one service start together; without this two of them could be given the same port.
 */
const claimedPorts = new Set<number>()
const CLAIM_MS = 15_000

function claimPort(port: number): void {
  claimedPorts.add(port)
  setTimeout(() => claimedPorts.delete(port), CLAIM_MS).unref()
}

/** Whether anvil failed to start because its port was taken (another process bound it after it was checked). */
export function isPortInUse(err: unknown): boolean {
  return err instanceof Error && /address already in use/i.test(err.message)
}

/**
 * The port for anvil's own HTTP server, which cannot be switched off (the service talks to anvil over IPC and
 * serves the chain RPC to users behind its guards, chainRpcRoutes.ts): a free browser-blocked port, tried from a
 * random one so that instances started together rarely race for the same one; a random free port (with a warning)
 * when all are taken.
 */
export async function findAnvilPort(log: Logger, host = '127.0.0.1'): Promise<number> {
  const start = Math.floor(Math.random() * BROWSER_BLOCKED_PORTS.length)
  for (let i = 0; i < BROWSER_BLOCKED_PORTS.length; i++) {
    const port = BROWSER_BLOCKED_PORTS[(start + i) % BROWSER_BLOCKED_PORTS.length] as number
    if (claimedPorts.has(port)) continue
    if (await isPortFree(port, host)) {
      claimPort(port)
      return port
    }
  }
  log.warn(
    { tried: BROWSER_BLOCKED_PORTS },
    "every browser-blocked port is taken: anvil's own HTTP port is a random one, which a web page could reach",
  )
  return findFreePort(host)
}
