import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { makeTempDir } from '../../helpers/makeTempDir'

const root = path.resolve(import.meta.dirname, '../../..')

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

describe('stopping through npm', () => {
  it('a SIGTERM to `npm run serve` stops the service and its anvil, freeing the port', async () => {
    const dataDir = await makeTempDir('opstation-npm-stop-')
    const npm = spawn(
      'npm',
      ['run', 'serve', '--', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    npm.stdout.on('data', (d) => {
      stdout += d
    })
    const ready = await waitFor(() => stdout.includes('opstation ready '), 60_000)
    expect(ready, stdout).toBe(true)
    const info = JSON.parse(stdout.slice(stdout.indexOf('opstation ready ') + 16).split('\n')[0] as string)
    const anvilPid = Number(readFileSync(path.join(dataDir, 'chain', 'anvil.pid'), 'utf8'))
    expect(isProcessAlive(anvilPid)).toBe(true)

    npm.kill('SIGTERM')
    const portFree = async () => {
      try {
        await fetch(`${info.dashboardUrl}/health`)
        return false
      } catch {
        return true
      }
    }
    expect(await waitFor(portFree, 15_000), 'the service still answers').toBe(true)
    expect(await waitFor(() => !isProcessAlive(anvilPid), 15_000), 'anvil still runs').toBe(true)
  })
})
