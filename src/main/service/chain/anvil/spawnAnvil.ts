import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { StartupError } from '../../errors'

/** Blocks whose state anvil keeps for calls at a past block (`--prune-history`). */
export const HISTORICAL_STATES = 64

export type SpawnAnvilParameters = {
  binary: string
  port: number
  chainId: number
  /** The chain's state file: loaded at start when it exists; only the service writes it (atomically). */
  statePath: string
  /** Where anvil dumps its own state, on exit and every `stateIntervalSec` (the backstop, see adoptExitDump). */
  exitDumpPath: string
  stateIntervalSec: number
  gasLimit: bigint
  host?: string
  /** Also serve JSON-RPC on this IPC endpoint (a Unix socket path, or a named pipe on Windows). */
  ipcPath?: string
  /** Milliseconds to wait for the first RPC answer. */
  readyTimeoutMs?: number
}

export type AnvilProcess = {
  child: ChildProcess
  pid: number
  rpcUrl: string
  /** Resolves when the process exits (code, signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** Last lines anvil printed (for error messages). */
  output: () => string
}

/** The anvil 1.7.1 command line we run (automine; interval mining is switched on over RPC after deployment). */
export function buildAnvilArgs(p: SpawnAnvilParameters): string[] {
  return [
    '--host',
    p.host ?? '127.0.0.1',
    '--port',
    String(p.port),
    '--chain-id',
    String(p.chainId),
    // anvil writes its dumps without a temporary file: one cut short by a kill is unreadable. So it loads the
    // service's (atomic) state file and dumps, on exit and every --state-interval seconds, to a file of its own.
    ...(existsSync(p.statePath) ? ['--load-state', p.statePath] : []),
    '--dump-state',
    p.exitDumpPath,
    '--state-interval',
    String(p.stateIntervalSec),
    // The states of the last 64 blocks stay in memory (calls at those blocks work); older ones are dropped. By
    // default anvil writes them under ~/.foundry/anvil/tmp: a disk write on every block of a big chain, hundreds of
    // MB per long session left behind whenever anvil is killed, and more memory (bench with 3,000 operations of
    // history: anvil CPU per operation 3.6 -> 2.5 ms, its memory 400 -> 225 MB).
    '--prune-history',
    String(HISTORICAL_STATES),
    // Prague: EIP-7702 authorizations (type-4 transactions) for EntryPoint v0.8's 7702 accounts. anvil's default
    // ("latest") moves with its releases; a fixed fork keeps the chain's rules the same across anvil versions.
    '--hardfork',
    'prague',
    '--gas-limit',
    String(p.gasLimit),
    '--no-request-size-limit',
    // No per-request logging: it slows every call (a reverting eth_call ~2.6 ms instead of ~1.7 ms).
    '--quiet',
    ...(p.ipcPath ? ['--ipc', p.ipcPath] : []),
  ]
}

async function answersRpc(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(500),
    })
    return res.ok
  } catch {
    return false
  }
}

/** Spawns anvil and resolves once it answers `eth_chainId`. Throws a StartupError if it exits or times out. */
export async function spawnAnvil(p: SpawnAnvilParameters): Promise<AnvilProcess> {
  const host = p.host ?? '127.0.0.1'
  const rpcUrl = `http://${host}:${p.port}`
  const child = spawn(p.binary, buildAnvilArgs(p), { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
  let buffer = ''
  const collect = (chunk: Buffer) => {
    buffer = (buffer + chunk.toString('utf8')).slice(-4000)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }))
  })
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve))

  let done = false
  const deadline = Date.now() + (p.readyTimeoutMs ?? 15_000)
  const failure = Promise.race([
    exited.then(({ code, signal }) => `anvil exited during start (code ${code}, signal ${signal})`),
    spawnError.then((err) => `anvil could not be started: ${err.message}`),
  ]).then((reason) => {
    done = true
    return reason
  })
  const ready = (async () => {
    while (!done) {
      if (await answersRpc(rpcUrl)) return true
      if (Date.now() > deadline) return false
      await new Promise((r) => setTimeout(r, 15))
    }
    return false
  })()

  const outcome = await Promise.race([ready, failure])
  if (outcome !== true) {
    done = true
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    const reason = typeof outcome === 'string' ? outcome : `anvil did not answer on ${rpcUrl} in time`
    throw new StartupError(`${reason}: ${buffer.trim().split('\n').slice(-5).join(' | ')}`, {
      data: { binary: p.binary, args: buildAnvilArgs(p), output: buffer },
    })
  }
  return { child, pid: child.pid ?? 0, rpcUrl, exited, output: () => buffer }
}
