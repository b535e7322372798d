import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'

export type SpawnedCli = {
  child: ChildProcess
  /** The parsed JSON of the ready line. */
  ready: Record<string, any>
  stderr: () => string
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>
}

const BIN = path.resolve(import.meta.dirname, '../../bin/opstation.js')

export type SpawnCliOptions = {
  /** How long to wait for the ready line (default 30 s). */
  timeoutMs?: number
  /** Node flags before the script (e.g. --cpu-prof). */
  nodeArgs?: string[]
  env?: NodeJS.ProcessEnv
}

/**
 * Runs `opstation serve <args>` as a real child process and waits for its ready line. The one place tests, the
 * e2e fixtures and the benchmark start the headless service.
 */
export async function spawnCli(args: string[], options: SpawnCliOptions = {}): Promise<SpawnedCli> {
  const timeoutMs = options.timeoutMs ?? 30_000
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const ready = await new Promise<Record<string, any>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the service printed no ready line in ${timeoutMs} ms; stderr:\n${stderr}`)),
      timeoutMs,
    )
    child.stdout?.on('data', (d) => {
      stdout += d
      const line = stdout.split('\n').find((l) => l.startsWith('opstation ready '))
      if (line) {
        clearTimeout(timer)
        resolve(JSON.parse(line.slice('opstation ready '.length)))
      }
    })
    exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the service exited (${code}) before it was ready; stderr:\n${stderr}`))
    })
  })
  return { child, ready, stderr: () => stderr, exited }
}

/** Runs the CLI to completion (for start-up failures) and returns its exit code and stderr. */
export async function runCliToExit(
  args: string[],
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stderr = ''
  let stdout = ''
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  return { code, stderr, stdout }
}
