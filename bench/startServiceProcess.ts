import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'

export type ServiceProcess = {
  pid: number
  bundlerUrl: string
  rpcUrl: string
  /** Resident memory of the service process now and at its peak, in MiB (Linux /proc; ps elsewhere). */
  memory: () => { rssMiB: number; peakMiB: number | null }
  stop: () => Promise<void>
}

/** Starts `opstation serve` (bin/opstation.js) as its own process on a free port and waits for its ready line. */
export async function startServiceProcess(params: {
  root: string
  dataDir: string
  unsafe: boolean
}): Promise<ServiceProcess> {
  const args = [
    path.join(params.root, 'bin/opstation.js'),
    'serve',
    '--port',
    '0',
    '--data-dir',
    params.dataDir,
  ]
  if (params.unsafe) args.push('--unsafe')
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: params.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const ready = await new Promise<{ bundlerUrl: string; rpcUrl: string }>((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => reject(new Error(`service did not start in 60 s\n${stderr}`)), 60_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('opstation ready '))
      if (line) {
        clearTimeout(timer)
        resolve(JSON.parse(line.slice('opstation ready '.length)))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`service exited with code ${code}\n${stderr}`))
    })
  })
  const pid = child.pid as number
  return {
    pid,
    bundlerUrl: ready.bundlerUrl,
    rpcUrl: ready.rpcUrl,
    memory() {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8')
        const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
        return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 }
      } catch {
        return { rssMiB: Number.NaN, peakMiB: null }
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
