import { spawn } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { lockDataFolder } from '../../../src/main/service/store/lockDataFolder'
import { makeTempDir } from '../../helpers/makeTempDir'

describe('lockDataFolder', () => {
  it('names its holder with the start time /proc gives, and refuses a second lock while held', async () => {
    const dir = await makeTempDir('lock-')
    const lock = lockDataFolder(dir)
    const written = JSON.parse(await readFile(path.join(dir, 'opstation.lock'), 'utf8'))
    expect(written).toMatchObject({ pid: process.pid, startTime: expect.stringMatching(/^\d+$/) })
    // Held by this very process (another service in it): refused too.
    expect(() => lockDataFolder(dir)).toThrow(`is in use by another Opstation instance (pid ${process.pid})`)
    lock.release()
    lockDataFolder(dir).release()
  })

  it('takes over a lock whose pid now belongs to a live process that is not its holder', async () => {
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    onTestFinished(() => {
      other.kill('SIGKILL')
    })
    const dir = await makeTempDir('lock-')
    const lockPath = path.join(dir, 'opstation.lock')
    for (const stale of [
      String(other.pid),
      JSON.stringify({ pid: other.pid, startTime: '1', commandLine: ['opstation'] }),
      JSON.stringify({ pid: process.pid, startTime: '1' }),
      String(process.pid),
    ]) {
      await writeFile(lockPath, stale)
      const lock = lockDataFolder(dir)
      expect(JSON.parse(await readFile(lockPath, 'utf8')).pid).toBe(process.pid)
      lock.release()
    }
  })
})
