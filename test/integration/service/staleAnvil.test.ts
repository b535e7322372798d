import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'
import { seedWithChainTemplate } from '../../helpers/startTestService'

describe('an anvil orphaned by a hard-killed service', () => {
  it('is stopped by the next start on the same data folder, so two anvils never write one state file', async () => {
    const dataDir = await makeTempDir('opstation-stale-')
    await seedWithChainTemplate(dataDir)
    const first = await spawnCli(['--port', '0', '--data-dir', dataDir])
    const anvilPid = Number(await readFile(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
    first.child.kill('SIGKILL')
    await first.exited
    expect(isProcessAlive(anvilPid)).toBe(true)

    const second = await spawnCli(['--port', '0', '--data-dir', dataDir])
    try {
      expect(isProcessAlive(anvilPid)).toBe(false)
      const newPid = Number(await readFile(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
      expect(newPid).not.toBe(anvilPid)
      expect(isProcessAlive(newPid)).toBe(true)
    } finally {
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    }
  })
})
