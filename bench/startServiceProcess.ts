import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

export type ServiceProcess = {
  pid: number
  bundlerUrl: string
  rpcUrl: string
  /** The service's base URL (console and dashboard routes) and its auth token, from the ready line. */
  dashboardUrl: string
  authToken: string
  /** From the spawn of the process to its ready line, ms. */
  readyMs: number
  /** Resident memory of the service process now and at its peak, in MiB (Linux /proc; ps elsewhere). */
  memory: () => { rssMiB: number; peakMiB: number | null }
  /** Resident memory of its node (the embedded anvil) now and at its peak, in MiB (Linux /proc). */
  nodeMemory: () => { rssMiB: number; peakMiB: number | null }
  /**
   * CPU time used so far (user + system, ms) by the service process and by its children (anvil), and the part of
   * each spent in the kernel; Linux only.
   */
  cpuMs: () => { service: number; serviceKernel: number; node: number; nodeKernel: number }
  stop: () => Promise<void>
}

const THIS_TREE = path.resolve(import.meta.dirname, '..')
const READY_TIMEOUT_MS = 60_000
/**
 * Pending operations per unstaked sender the benched services take: the bench clients keep more than ERC-7562's 4
 * in flight (the services' default before it became 4 was 16, which older trees keep without the flag).
 */
const MAX_PENDING_PER_SENDER = 16

/** Whether the tree's CLI has the flag that sets the per-sender limit (trees before it take 16 anyway). */
function hasPendingLimitFlag(tree: string): boolean {
  try {
    return readFileSync(path.join(tree, 'src/main/cli.ts'), 'utf8').includes("'max-pending-per-sender'")
  } catch {
    return false
  }
}

/**
 * Starts `opstation serve` (bin/opstation.js) as its own process on a free port and waits for its ready line.
 * `tree`: the checkout whose service to start (default this one; `bench:compare` drives another commit's service
 * with this tree's clients).
 */
export async function startServiceProcess(params: {
  dataDir: string
  unsafe: boolean
  tree?: string
}): Promise<ServiceProcess> {
  const args = ['serve', '--port', '0', '--data-dir', params.dataDir]
  if (params.unsafe) args.push('--unsafe')
  if (hasPendingLimitFlag(params.tree ?? THIS_TREE))
    args.push('--max-pending-per-sender', String(MAX_PENDING_PER_SENDER))
  const spawnedAt = performance.now()
  // BENCH_SERVICE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the service process.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const bin = path.join(params.tree ?? THIS_TREE, 'bin/opstation.js')
  const child = spawn(process.execPath, [...nodeArgs, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  const ready = await readReadyLine(child)
  const readyMs = performance.now() - spawnedAt
  const pid = child.pid as number
  const releaseOnExit = stopWithThisProcess(child)
  return {
    pid,
    bundlerUrl: ready.bundlerUrl,
    rpcUrl: ready.rpcUrl,
    dashboardUrl: ready.dashboardUrl,
    authToken: ready.authToken,
    readyMs,
    memory: () => readMemory(pid),
    nodeMemory() {
      const node = readdirSync('/proc').find(
        (entry) => /^\d+$/.test(entry) && readStat(Number(entry))?.ppid === pid && isAnvil(Number(entry)),
      )
      return node ? readMemory(Number(node)) : { rssMiB: Number.NaN, peakMiB: null }
    },
    cpuMs() {
      let node = 0
      let nodeKernel = 0
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry)) continue
        const stat = readStat(Number(entry))
        if (stat?.ppid !== pid) continue
        node += stat.cpuMs
        nodeKernel += stat.kernelMs
      }
      const service = readStat(pid)
      return {
        service: service?.cpuMs ?? Number.NaN,
        serviceKernel: service?.kernelMs ?? Number.NaN,
        node,
        nodeKernel,
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        releaseOnExit()
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** What the bench reads of the service's ready line (every version since the bench began prints these). */
type ReadyLine = { bundlerUrl: string; rpcUrl: string; dashboardUrl: string; authToken: string }

/** The JSON of the service's `opstation ready {...}` line; rejects if it exits first or prints none in time. */
function readReadyLine(child: ChildProcess): Promise<ReadyLine> {
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      reject(new Error(`the service printed no ready line in ${READY_TIMEOUT_MS} ms; stderr:\n${stderr}`))
    }, READY_TIMEOUT_MS)
    const onExit = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`the service exited (${code}) before it was ready; stderr:\n${stderr}`))
    }
    child.once('exit', onExit)
    child.stdout?.on('data', (d) => {
      stdout += d
      const line = stdout.split('\n').find((l) => l.startsWith('opstation ready '))
      if (!line) return
      clearTimeout(timer)
      child.off('exit', onExit)
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      resolve(JSON.parse(line.slice('opstation ready '.length)))
    })
  })
}

/**
 * The service must not outlive the bench (an error, or the bench interrupted or killed): it would keep running with
 * its anvil. Returns the function that lets go once the service is stopped the normal way.
 */
function stopWithThisProcess(child: ChildProcess): () => void {
  const stopChild = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  }
  const onSignal = (signal: NodeJS.Signals) => {
    stopChild()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('exit', stopChild)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return () => {
    process.off('exit', stopChild)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/** The process runs anvil (the service may have other children). */
function isAnvil(pid: number): boolean {
  try {
    return /anvil/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '')
  } catch {
    return false
  }
}

/** Resident memory of a process now and at its peak, in MiB (Linux /proc). */
function readMemory(pid: number): { rssMiB: number; peakMiB: number | null } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
    return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 }
  } catch {
    return { rssMiB: Number.NaN, peakMiB: null }
  }
}

/** ppid, utime + stime and stime alone (ms) from /proc/<pid>/stat; null when unreadable. */
export function readStat(pid: number): { ppid: number; cpuMs: number; kernelMs: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    // After the command: state(0) ppid(1) ... utime(11) stime(12), in clock ticks (100 per second on Linux).
    return {
      ppid: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
      kernelMs: Number(fields[12]) * 10,
    }
  } catch {
    return null
  }
}
