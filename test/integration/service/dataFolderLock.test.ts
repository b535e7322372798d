import { type ChildProcess, spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { runCliToExit, spawnCli } from '../../helpers/spawnCli'
import { startTestService } from '../../helpers/startTestService'

/** A live process that is not Opstation (what a stale lock's pid names once the system has reused it). */
function startOtherProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
  onTestFinished(() => {
    child.kill('SIGKILL')
  })
  return child
}

describe('the data folder lock', () => {
  it('left by a dead instance, whose pid now names another live process, does not block the start', async () => {
    const other = startOtherProcess()
    // As earlier versions left it (the pid) and as this one does (pid, start time, command line).
    const stale = [
      String(other.pid),
      JSON.stringify({ pid: other.pid, startTime: '1', commandLine: ['node', 'bin/opstation.js', 'serve'] }),
    ]
    for (const lock of stale) {
      const dataDir = await makeTempDir('opstation-lock-')
      await writeFile(path.join(dataDir, 'opstation.lock'), lock, { mode: 0o600 })
      const cli = await spawnCli(['--port', '0', '--data-dir', dataDir, '--no-chain'])
      const taken = await readFile(path.join(dataDir, 'opstation.lock'), 'utf8')
      expect(taken).toMatch(new RegExp(`^(\\{"pid":)?${cli.child.pid}\\b`))
      cli.child.kill('SIGTERM')
      expect(await cli.exited).toBe(0)
    }
  })

  it('held by a live service in another process blocks the start, whatever that process runs', async () => {
    // Here the holder is this test worker (vitest), not the opstation CLI: the check must not rely on a name.
    const service = await startTestService({ noChain: true })
    onTestFinished(() => service.dispose())
    const second = await runCliToExit(['serve', '--port', '0', '--data-dir', service.dataDir, '--no-chain'])
    expect(second.code).toBe(1)
    expect(second.stderr.trim().split('\n')).toHaveLength(1)
    expect(second.stderr).toContain(`is in use by another Opstation instance (pid ${process.pid})`)
  })
})
