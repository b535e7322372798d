import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Logger } from '../../log/logger'
import { copyFileAtomic } from '../../util/files/writeFileAtomic'
import { defaults } from '../constants'
import { createWriteGate } from '../journal/createWriteGate'
import { openWriteJournal } from '../journal/openWriteJournal'
import { replayWrites } from '../journal/replayWrites'
import { createNodeTransport } from '../node/createNodeTransport'
import type { NodeRequest } from '../node/nodeRpcError'
import type { ChainEvent } from '../types'
import { adoptExitDump } from './adoptExitDump'
import {
  CompactionLostChainError,
  compactChainHistory,
  isCompactionDue,
  isPoolEmpty,
} from './compactChainHistory'
import { dumpState } from './dumpState'
import { findAnvilPort, isPortInUse } from './findAnvilPort'
import { type ForkConfig, type ForkPlan, prepareFork, redactForkUrl } from './prepareFork'
import { resolveAnvilBinary } from './resolveAnvilBinary'
import { startStateSaver } from './saveStateOnChange'
import { type AnvilProcess, isStateUnloadable, spawnAnvil } from './spawnAnvil'
import { recordAnvilPid, stopStaleAnvil } from './stopStaleAnvil'
import type { StateDumpTrim } from './trimStateDump'

export type StartEmbeddedNodeParameters = {
  /** The folder of the chain's files (`<dataDir>/chain` for a service of one chain). */
  chainDir: string
  /** `--chain-id`; default 31337, or on a fork the remote's (or the one the data folder's fork was started with). */
  chainId?: number
  /** Run as a fork of another chain (prepareFork.ts); a data folder holding a fork continues it without this. */
  fork?: ForkConfig
  anvilPath?: string
  log: Logger
  emit: (event: ChainEvent) => void
  /** Runs after an unexpected exit and restart, before `chain.restarted` is emitted (re-verify contracts). */
  afterRestart: () => Promise<void>
}

export type EmbeddedNode = {
  /** anvil's HTTP URL: the same port after a restart, unless another process took it meanwhile. */
  readonly rpcUrl: string
  /** anvil's IPC endpoint: the service's only way to it (HTTP at `rpcUrl` is there too, for nothing of ours). */
  ipcPath: string
  readonly port: number
  binary: string
  statePath: string
  /** The fork this node runs (the data folder's `chain/fork.json`), or undefined. */
  fork: ForkPlan | undefined
  /** pid of the current anvil process. */
  pid: () => number
  /**
   * The saved state leaves out the blocks up to `block` but the head (the chain's deployment: 52 transactions with
   * their creation code and call traces, half of the 3.5 MB state of a fresh chain, loaded at every start and
   * written at every save). anvil itself keeps them until it restarts.
   */
  startHistoryAfter: (block: number) => void
  /**
   * `request` (a transport to this node) with every state-changing call journaled before it is answered: what a
   * client was told survives a hard kill of the service and anvil (openWriteJournal.ts).
   */
  journal: (request: NodeRequest) => NodeRequest
  /** Dumps the state (anvil_dumpState) to the state file and stops anvil. */
  stop: () => Promise<void>
}

/**
 * Starts anvil on 127.0.0.1 and a free port with its state in `<chainDir>/anvil-state.json`, and keeps it
 * running: if it exits unexpectedly it is restarted from the saved state on the same port, or on another one when
 * another process took it meanwhile.
 */
export async function startEmbeddedNode(p: StartEmbeddedNodeParameters): Promise<EmbeddedNode> {
  const binary = resolveAnvilBinary(p.anvilPath)
  const { chainDir } = p
  await mkdir(chainDir, { recursive: true, mode: 0o700 })
  const statePath = join(chainDir, 'anvil-state.json')
  const exitDumpPath = join(chainDir, 'anvil-exit-dump.json')
  await removeStaleIpcSockets(chainDir)
  const ipcPath = chooseIpcPath(chainDir)
  const fork = await prepareFork({
    chainDir,
    fork: p.fork,
    chainId: p.chainId,
    hasState: existsSync(statePath) || existsSync(exitDumpPath),
  })
  if (fork?.continued)
    p.log.info(
      { url: redactForkUrl(fork.plan.url), block: fork.plan.block },
      'continuing the fork the data folder holds',
    )
  const spawnParameters = {
    binary,
    port: await findAnvilPort(p.log),
    ipcPath,
    chainId: fork ? fork.plan.chainIdOverride : (p.chainId ?? defaults.chainId),
    fork: fork && { url: fork.plan.url, block: fork.plan.block },
    statePath,
    exitDumpPath,
    stateIntervalSec: defaults.stateIntervalSec,
    gasLimit: defaults.blockGasLimit,
  }

  // Every state-changing call since the last save; the node's own connection (below) saves the state.
  let node: ReturnType<typeof createNodeTransport> | undefined
  /** What the last save left out of anvil's history: how many old blocks anvil holds that the saved state does not. */
  let lastTrim: StateDumpTrim | undefined
  /** The first block the saved history holds (startHistoryAfter): the deployment's blocks are left out. */
  let historyStart: number | undefined
  const save = async () => {
    lastTrim = await dumpState((node as ReturnType<typeof createNodeTransport>).request, statePath, {
      firstBlock: historyStart,
    })
  }
  const journal = openWriteJournal({ dir: join(chainDir, 'journal'), save })

  // A copy of the last state file anvil loaded successfully, to fall back to if the current one is unreadable.
  const lastGoodPath = `${statePath}.last-good`
  const spawnWithRecovery = async (): Promise<AnvilProcess> => {
    const exitDumpAt = (await stat(exitDumpPath).catch(() => undefined))?.mtimeMs
    const exitDump = await adoptExitDump({
      statePath,
      exitDumpPath,
      fallbackPath: lastGoodPath,
      revertedAt: journal.lastRevertAt(),
    })
    if (exitDump === 'adopted') {
      p.log.info('loading the state anvil saved on its own after the last save of ours')
      // anvil dumped after the journal's last write: its dump holds every journaled call.
      if (exitDumpAt !== undefined && exitDumpAt >= (journal.lastWriteAt() ?? 0)) journal.clear()
    }
    const hadState = existsSync(statePath)
    try {
      const proc = await spawnAnvil(spawnParameters)
      if (hadState) await copyFileAtomic(statePath, lastGoodPath).catch(() => {})
      return proc
    } catch (err) {
      // Only anvil's own word that the state file does not load sets it aside. Any other failure leaves it as it is: a
      // port another process took is tried again on another port (below); a missing binary or a time-out stops the
      // start with its reason. Taken for an unreadable state, a taken port once moved the state aside and started a
      // fresh chain (two chains of one service starting together).
      if (!hadState || !isStateUnloadable(err)) throw err
      // A state file anvil cannot load (e.g. cut off by a hard kill while dumping): keep it aside and fall back
      // to the last state that loaded, else to a fresh chain.
      const aside = `${statePath}.unreadable-${Date.now()}`
      await rename(statePath, aside)
      if (existsSync(lastGoodPath)) {
        await copyFileAtomic(lastGoodPath, statePath)
        p.log.warn(
          { err, aside },
          'anvil could not load its state file; moved it aside, using the last good state',
        )
        try {
          return await spawnAnvil(spawnParameters)
        } catch (again) {
          // As above: only anvil's word that the last good state does not load either sets it aside. A port taken
          // meanwhile is tried again on another one (spawnOnFreePort), with the last good state in place.
          if (!isStateUnloadable(again)) throw again
          await rename(statePath, `${aside}.last-good`)
          p.log.warn({ err: again }, 'the last good state does not load either; starting with a fresh chain')
        }
      } else {
        p.log.warn(
          { err, aside },
          'anvil could not load its state file; moved it aside, starting with a fresh chain',
        )
      }
      return await spawnAnvil(spawnParameters)
    }
  }

  const pidPath = join(chainDir, 'anvil.pid')
  const spawnTracked = async (): Promise<AnvilProcess> => {
    const proc = await spawnWithRecovery()
    await recordAnvilPid(pidPath, proc.pid)
    await replayJournal(proc)
    return proc
  }
  /** Sends the new node what its loaded state lacks of the journal (a hard kill came before the last save). */
  const replayJournal = async (proc: AnvilProcess) => {
    const entries = journal.pending()
    if (entries.length === 0) return
    const started = Date.now()
    const direct = createNodeTransport({ rpcUrl: proc.rpcUrl, ipcPath })
    try {
      const result = await replayWrites({ request: direct.request, entries, log: p.log })
      if (result.replayed > 0 || result.failed > 0)
        p.log.info(
          { ...result, ms: Date.now() - started },
          'replayed the chain writes the saved state lacked',
        )
    } finally {
      direct.close()
    }
  }
  await stopStaleAnvil(pidPath, [exitDumpPath, statePath], p.log)
  /**
   * Another process holds the port (taken between the check and anvil's bind, or, at a restart, since the crash):
   * again on another one, a few times. The service reaches anvil over IPC, whose endpoint stays the same.
   */
  const spawnOnFreePort = async (attempt = 1): Promise<AnvilProcess> => {
    try {
      return await spawnTracked()
    } catch (err) {
      if (!isPortInUse(err) || attempt >= 4) throw err
      const taken = spawnParameters.port
      spawnParameters.port = await findAnvilPort(p.log)
      p.log.info({ taken, port: spawnParameters.port }, "anvil's port is taken; starting it on another one")
      return spawnOnFreePort(attempt + 1)
    }
  }
  let current = await spawnOnFreePort()
  await fork?.record()
  let stopping = false
  p.log.info({ rpcUrl: current.rpcUrl, pid: current.pid, binary, statePath }, 'embedded anvil started')

  const restart = async (attempt: number): Promise<void> => {
    const started = Date.now()
    try {
      current = await spawnOnFreePort()
      watch(current)
      await p.afterRestart()
      p.log.info(
        { rpcUrl: current.rpcUrl, pid: current.pid, ms: Date.now() - started },
        'embedded anvil restarted',
      )
      p.emit({ type: 'chain.restarted', rpcUrl: current.rpcUrl, restartMs: Date.now() - started })
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err))
      p.log.error({ err: error, attempt }, 'restarting the embedded anvil failed')
      p.emit({ type: 'chain.error', error })
      if (attempt < 5 && !stopping) {
        await new Promise((r) => setTimeout(r, 200 * 2 ** attempt))
        if (!stopping) await restart(attempt + 1)
      }
    }
  }

  const watch = (proc: AnvilProcess) => {
    void proc.exited.then(async ({ code, signal }) => {
      // A signal to the whole process group (Ctrl-C, a service manager) reaches anvil and us together: give
      // our own shutdown a moment to begin before treating the exit as a crash.
      await new Promise((r) => setTimeout(r, 250))
      if (stopping || proc !== current) return
      p.log.warn({ code, signal, pid: proc.pid, output: proc.output().slice(-1000) }, 'embedded anvil exited')
      p.emit({ type: 'chain.exited', code, signal })
      void restart(0)
    })
  }
  watch(current)
  // Saves within a moment of every change, so a hard kill of anvil loses (almost) nothing; anvil's own dump
  // (adoptExitDump) is the backstop.
  // Its own connection to the node (IPC), for the saver and the dump on stop.
  const connection = createNodeTransport({ rpcUrl: current.rpcUrl, ipcPath })
  node = connection
  // The service's calls to the node wait while the chain's old history is dropped from anvil (a save and a reload of
  // the saved state), at a quiet moment or, far behind, whatever the load.
  const hold = createWriteGate()
  const compact = async (): Promise<boolean> => {
    if (!(await isPoolEmpty(connection.request))) return false
    return hold.exclusive(() =>
      journal.checkpoint(async () => {
        try {
          const compacted = await compactChainHistory({
            request: connection.request,
            statePath,
            firstBlock: historyStart,
          })
          // A transaction came into anvil's pool meanwhile: a plain save (the journal's checkpoint needs one).
          if (!compacted) await save()
          else {
            lastTrim = undefined
            p.log.info(compacted, 'chain history compacted')
          }
          return true
        } catch (err) {
          if (err instanceof CompactionLostChainError) {
            // anvil holds an empty chain: restarted (watch) from the state saved just before.
            p.log.error({ err }, 'compacting the chain history failed; restarting anvil from the saved state')
            current.child.kill('SIGKILL')
          }
          throw err
        }
      }),
    )
  }
  const saver = startStateSaver({
    request: connection.request,
    save: () => journal.checkpoint(save),
    writeCount: journal.writeCount,
    log: p.log,
    isHeld: journal.holdsSnapshots,
    compaction: {
      due: (quiet) => isCompactionDue(lastTrim, quiet),
      run: compact,
    },
  })
  // Do not leave anvil running when this process exits without calling stop().
  const killOnExit = () => {
    if (current.child.exitCode === null && current.child.signalCode === null) current.child.kill('SIGTERM')
  }
  process.once('exit', killOnExit)

  const removeIpcSocket = async () => {
    if (process.platform !== 'win32') await rm(ipcPath, { force: true }).catch(() => {})
  }

  return {
    get rpcUrl() {
      return current.rpcUrl
    },
    ipcPath,
    get port() {
      return spawnParameters.port
    },
    binary,
    statePath,
    fork: fork?.plan,
    pid: () => current.pid,
    startHistoryAfter: (block) => {
      historyStart = block + 1
    },
    journal: (request) => {
      const journaled = journal.wrap(request)
      return (method, params, readBody) => hold.shared(() => journaled(method, params, readBody))
    },
    stop: async () => {
      stopping = true
      await saver.stop()
      process.off('exit', killOnExit)
      const proc = current
      if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
        connection.close()
        journal.close()
        return removeIpcSocket()
      }
      let saved = false
      try {
        await journal.checkpoint(save)
        saved = true
      } catch (err) {
        // Ctrl-C in a terminal signals anvil too (same process group); anvil then dumps its state itself on exit
        // (to the exit dump, which the next start adopts).
        const exited = await Promise.race([
          proc.exited.then(() => true),
          new Promise((r) => setTimeout(r, 300, false)),
        ])
        if (exited) p.log.debug('anvil was stopped by the same signal; it dumped its state on exit')
        else p.log.warn({ err }, 'anvil_dumpState on stop failed; the state saved last stands')
      }
      connection.close()
      journal.close()
      proc.child.kill('SIGTERM')
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 3000)
      await proc.exited
      clearTimeout(timer)
      // What anvil dumped on its way out is what was just saved: the next start need not read it.
      if (saved) await rm(exitDumpPath, { force: true }).catch(() => {})
      await removeIpcSocket()
    },
  }
}

/**
 * Where anvil serves IPC: a named pipe on Windows; else a socket in the data folder's chain directory (private to
 * the user), or in the temp directory when that path is too long for a socket address (about 100 bytes). The name
 * is new for every start, so a client can never reach an anvil left running by a service that crashed.
 */
function chooseIpcPath(chainDir: string): string {
  const id = randomBytes(4).toString('hex')
  if (process.platform === 'win32') return `\\\\.\\pipe\\opstation-anvil-${process.pid}-${id}`
  const inDataFolder = join(chainDir, `anvil-${id}.ipc`)
  return Buffer.byteLength(inDataFolder) <= 100
    ? inDataFolder
    : join(tmpdir(), `opstation-anvil-${process.pid}-${id}.ipc`)
}

/** Sockets of earlier runs (we hold the data folder's lock, so nothing live uses them). */
async function removeStaleIpcSockets(chainDir: string): Promise<void> {
  if (process.platform === 'win32') return
  const entries = await readdir(chainDir).catch(() => [] as string[])
  await Promise.all(
    entries
      .filter((name) => /^anvil(-[0-9a-f]+)?\.ipc$/.test(name))
      .map((name) => rm(join(chainDir, name), { force: true }).catch(() => {})),
  )
}
