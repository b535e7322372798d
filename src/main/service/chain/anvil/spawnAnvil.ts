import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createConnection } from 'node:net'
import { StartupError } from '../../errors'

/** Blocks whose state anvil keeps for calls at a past block (`--prune-history`). */
export const HISTORICAL_STATES = 64

/**
 * Blocks whose transactions, receipts and logs the embedded chain keeps (`--transaction-block-keeper`), and the
 * blocks the saved state holds at most besides the genesis block (dumpState.ts): the same 64 blocks whose states it
 * keeps. anvil keeps every transaction with its call traces (about 13 KB per UserOperation, and a bundle holds up to
 * 64) in memory and in its dumps: a chain used for weeks made every save and every start slower (a 47 MB state after
 * 3,000 operations: 1.2 s for anvil to load, 5.8 s to a ready service). A block count is the only bound anvil takes,
 * and the one that holds under load (1,024 blocks of 40-operation bundles: anvil's own dump of 437 MB, and saves too
 * dear to come, at 40,000 operations). The service keeps what it needs of older operations itself
 * (store/userOperationHistory.ts).
 */
export const HISTORY_BLOCKS = HISTORICAL_STATES

/**
 * Bytes of those blocks (headers and signed transactions: about 1.8 KB per UserOperation, 1.6 KB for an empty block)
 * the saved state holds at most: fewer of the newest blocks when they are full (their receipts and traces weigh
 * about 7 times as much), so that a start loads little more than the chain's accounts. About 270 UserOperations;
 * 64 blocks of one UserOperation each take 220 KB. At 50,000 operations in 43-operation bundles: 1 MB kept 7.5 MB of
 * transactions beside 6.6 MB of accounts.
 */
export const HISTORY_BLOCK_BYTES = 500_000

/**
 * HISTORY_BLOCKS, or OPSTATION_HISTORY_BLOCKS when set to a whole number (tests keep a short history to trim), 64 at
 * least: a first start sends some 45 transactions before it reads their receipts.
 */
export function historyBlocks(): number {
  const configured = Number(process.env.OPSTATION_HISTORY_BLOCKS)
  return Number.isInteger(configured) && configured > 0 ? Math.max(64, configured) : HISTORY_BLOCKS
}

export type SpawnAnvilParameters = {
  binary: string
  port: number
  /** `--chain-id`; unset on a fork that keeps the remote's chain id (anvil then takes it from the remote). */
  chainId?: number
  /** Run as a fork of this remote at this block (pinned: every start of the data folder forks the same block). */
  fork?: { url: string; block: number }
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
    ...(p.chainId === undefined ? [] : ['--chain-id', String(p.chainId)]),
    // A fork reads what it has not changed from the remote, at the block it was first started on. The saved state
    // (below) holds only the fork's own blocks and changes. No RPC cache in ~/.foundry: it is keyed by chain id and
    // block only, so a local remote (a dev chain, a test's anvil) restarted with other contents would be served
    // stale; anvil keeps what it read in memory while it runs.
    ...(p.fork
      ? ['--fork-url', p.fork.url, '--fork-block-number', String(p.fork.block), '--no-storage-caching']
      : []),
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
    // Transactions and receipts of older blocks are dropped from memory as blocks come (their headers stay until
    // the state saver compacts the chain: compactChainHistory.ts).
    '--transaction-block-keeper',
    String(historyBlocks()),
    // Prague: EIP-7702 authorizations (type-4 transactions) for EntryPoint v0.8's 7702 accounts. anvil's default
    // ("latest") moves with its releases; a fixed fork keeps the chain's rules the same across anvil versions.
    '--hardfork',
    'prague',
    '--gas-limit',
    String(p.gasLimit),
    '--no-request-size-limit',
    // No CORS headers: a web page's preflighted call to anvil itself fails (users get the guarded chain RPC).
    '--no-cors',
    // No per-request logging: it slows every call (a reverting eth_call ~2.6 ms instead of ~1.7 ms).
    '--quiet',
    ...(p.ipcPath ? ['--ipc', p.ipcPath] : []),
  ]
}

/**
 * True once the node answers eth_chainId. Over node:http, not fetch: fetch refuses the browser-blocked ports anvil
 * listens on (findAnvilPort.ts), as browsers do.
 */
function answersRpc(rpcUrl: string): Promise<boolean> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
    const req = httpRequest(
      rpcUrl,
      { method: 'POST', headers: { 'content-type': 'application/json' }, timeout: 500, agent: false },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode === 200))
        res.on('error', () => resolve(false))
      },
    )
    req.on('timeout', () => req.destroy())
    req.on('error', () => resolve(false))
    req.end(body)
  })
}

/**
 * True when anvil refused to start because it could not load its state file. anvil checks `--load-state` as it
 * parses its command line and exits with `invalid value '<path>' for '--load-state <PATH>': failed to parse json
 * file: ...` for a file cut off, empty or of another shape. Any other failure (a taken port, a missing binary, an
 * unknown flag, a time-out) says nothing of the state file.
 */
export function isStateUnloadable(err: unknown): boolean {
  if (!(err instanceof StartupError)) return false
  const output = (err.data as { output?: unknown } | undefined)?.output
  return typeof output === 'string' && /for '--load-state <PATH>'/.test(output)
}

/** Spawns anvil and resolves once it answers `eth_chainId`. Throws a StartupError if it exits or times out. */
export async function spawnAnvil(p: SpawnAnvilParameters): Promise<AnvilProcess> {
  const host = p.host ?? '127.0.0.1'
  const rpcUrl = `http://${host}:${p.port}`
  const child = spawnWithPrivateFiles(() =>
    spawn(p.binary, buildAnvilArgs(p), { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }),
  )
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
      // The port alone does not prove it: another instance's anvil may hold it (two starts picking one port), and
      // this one then exits with "address in use". Its own IPC socket (a new name per start) does.
      if ((await answersRpc(rpcUrl)) && (!p.ipcPath || (await answersIpc(p.ipcPath)))) return true
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

/**
 * anvil writes into the data folder itself (its exit dump, its IPC socket) with the mode its umask gives (0644 under
 * the usual 022). It inherits the umask at spawn, so it is spawned under 077: what it writes is the user's alone.
 * Spawning is synchronous, so the service's own umask changes only for that moment.
 */
function spawnWithPrivateFiles<T>(start: () => T): T {
  let previous: number | undefined
  try {
    previous = process.platform === 'win32' ? undefined : process.umask(0o077)
  } catch {
    // A worker thread cannot change the umask: anvil's files then get the service's (the data folder is 0700).
  }
  try {
    return start()
  } finally {
    if (previous !== undefined) process.umask(previous)
  }
}

/** Whether a JSON-RPC node answers eth_chainId on the IPC socket or named pipe at `path` (within 1 s). */
function answersIpc(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path)
    const finish = (ok: boolean) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => finish(false))
    socket.on('error', () => finish(false))
    socket.on('data', (data) => finish(data.toString().includes('"result"')))
    socket.on('connect', () => socket.write('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}\n'))
  })
}
