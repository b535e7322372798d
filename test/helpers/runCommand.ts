import { spawn } from 'node:child_process'

export type CommandResult = { stdout: string; stderr: string }

/**
 * Runs a command to completion without blocking the test's event loop (a build takes seconds; a test runner's
 * time-outs keep working meanwhile). Rejects on a non-zero exit with the end of its output.
 */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; what?: string },
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => {
      stdout += d
    })
    child.stderr.on('data', (d) => {
      stderr += d
    })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) return resolve({ stdout, stderr })
      const what = options.what ?? [command, ...args].join(' ')
      reject(
        new Error(`${what} failed (${signal ?? `exit ${code}`}):\n${`${stdout}\n${stderr}`.slice(-4000)}`),
      )
    })
  })
}
