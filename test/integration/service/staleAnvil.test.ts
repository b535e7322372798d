import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { seedWithChainTemplate } from '../../helpers/startTestService'

/** Running, and not a zombie (an orphan's exit may never be reaped in a container without an init). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'
  } catch {
    return false
  }
}

describe('an anvil orphaned by a hard-killed service', () => {
  it('is stopped by the next start on the same data folder, so two anvils never write one state file', async () => {
    const dataDir = await makeTempDir('opstation-stale-')
    await seedWithChainTemplate(dataDir)
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir])
    const anvilPid = Number(await readFile(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
    first.child.kill('SIGKILL')
    await first.exited
    expect(isAlive(anvilPid)).toBe(true)

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir])
    try {
      expect(isAlive(anvilPid)).toBe(false)
      const newPid = Number(await readFile(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
      expect(newPid).not.toBe(anvilPid)
      expect(isAlive(newPid)).toBe(true)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  })
})
