import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { isProcessAlive } from '../../../../src/main/service/util/process/isProcessAlive'

/** A Node process (several threads) listening on a port of its own, and that port. */
async function spawnListener(): Promise<{ pid: number; port: number }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s = require('net').createServer().listen(0, '127.0.0.1', () => console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject)
    child.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim())))
  })
  if (!child.pid) throw new Error('no pid')
  return { pid: child.pid, port }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })

describe('isProcessAlive', () => {
  it('is true for a running process and false for a pid no process has', () => {
    expect(isProcessAlive(process.pid)).toBe(true)
    expect(isProcessAlive(2 ** 22 + 1)).toBe(false)
  })

  // The main thread of a SIGKILLed process turns zombie while its other threads still exit and hold its port: taken
  // for dead then, a restart test's server could not bind anvil's port (17 of 20 such kills here).
  it.runIf(process.platform === 'linux')(
    'says a SIGKILLed process has exited only once its port is free: every thread gone, not just the main one',
    async () => {
      for (let round = 0; round < 10; round++) {
        const { pid, port } = await spawnListener()
        process.kill(pid, 'SIGKILL')
        // A tight loop, as the event loop would reap the child: what is seen is the unreaped process.
        const deadline = Date.now() + 10_000
        while (isProcessAlive(pid) && Date.now() < deadline) {}
        expect(isProcessAlive(pid)).toBe(false)
        expect(await canListen(port), `round ${round}: port ${port} still taken`).toBe(true)
      }
    },
  )
})
