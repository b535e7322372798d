import { existsSync } from 'node:fs'
import { chmod, lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { isProcessAlive } from '../../../src/main/service/util/process/isProcessAlive'
import { makeTempDir } from '../../helpers/makeTempDir'
import { spawnCli } from '../../helpers/spawnCli'

/** Every entry under `dir` with its permission bits (and kind), the folder itself included. */
async function listModes(dir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = {}
  const visit = async (target: string) => {
    const info = await lstat(target)
    const kind = info.isDirectory() ? 'dir' : info.isSocket() ? 'socket' : info.isFile() ? 'file' : 'other'
    modes[path.relative(dir, target) || '.'] = `${kind} ${(info.mode & 0o777).toString(8)}`
    if (info.isDirectory()) for (const name of await readdir(target)) await visit(path.join(target, name))
  }
  await visit(dir)
  return modes
}

/** What "private to the user" means: folders 0700, files 0600, a socket open to its owner only. */
function expectPrivate(modes: Record<string, string>): void {
  for (const [name, mode] of Object.entries(modes)) {
    const [kind, bits] = mode.split(' ')
    const expected = kind === 'dir' ? '700' : kind === 'file' ? '600' : undefined
    if (expected) expect(`${name}: ${bits}`).toBe(`${name}: ${expected}`)
    else expect(`${name}: ${Number.parseInt(bits!, 8) & 0o077}`).toBe(`${name}: 0`)
  }
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('the data folder', () => {
  it('holds only files private to the user, anvil’s own included, and loses the temporary files of killed writes', async () => {
    const dataDir = await makeTempDir('opstation-files-')
    const chainDir = path.join(dataDir, 'chain')
    // As an earlier version (or a looser umask) left it, with writes that a kill cut short.
    await chmod(dataDir, 0o755)
    await mkdir(chainDir, { mode: 0o755 })
    await chmod(chainDir, 0o755)
    const leftovers = [
      path.join(dataDir, '.opstation.json.4242.0badc0de.tmp'),
      path.join(chainDir, 'anvil-state.json.4242.1700000000000.tmp'),
      path.join(chainDir, '.keys.json.4242.cafebabe.tmp'),
    ]
    for (const file of leftovers) await writeFile(file, '{"half": ', { mode: 0o644 })
    await writeFile(path.join(chainDir, 'anvil.pid'), '999999999', { mode: 0o644 })

    const first = await spawnCli(['--port', '0', '--data-dir', dataDir])
    // Whatever fails below, neither the service nor its anvil outlives the test.
    const spawned = [first.child.pid]
    onTestFinished(() => {
      for (const pid of spawned) if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
    })
    const statePath = path.join(chainDir, 'anvil-state.json')
    await waitFor(() => existsSync(statePath), 20_000, 'the saved chain state')
    for (const file of leftovers) expect(existsSync(file), file).toBe(false)
    // A hard kill leaves anvil running; stopped, it writes its own dump on the way out.
    const anvilPid = Number(await readFile(path.join(chainDir, 'anvil.pid'), 'utf8'))
    spawned.push(anvilPid)
    first.child.kill('SIGKILL')
    await first.exited
    process.kill(anvilPid, 'SIGTERM')
    await waitFor(() => !isProcessAlive(anvilPid), 10_000, 'anvil to exit')
    const afterKill = await listModes(dataDir)
    expect(afterKill).toMatchObject({
      'opstation.json': 'file 600',
      'opstation.lock': 'file 600',
      'chain/anvil-state.json': 'file 600',
      'chain/anvil-exit-dump.json': 'file 600',
      'chain/keys.json': 'file 600',
      'chain/anvil.pid': 'file 600',
    })
    expectPrivate(afterKill)

    // The next start takes over what was left, and a clean stop leaves nothing looser.
    const second = await spawnCli(['--port', '0', '--data-dir', dataDir])
    spawned.push(second.child.pid, Number(await readFile(path.join(chainDir, 'anvil.pid'), 'utf8')))
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)
    const afterStop = await listModes(dataDir)
    expect(afterStop).toMatchObject({ 'chain/anvil-state.json.last-good': 'file 600' })
    expectPrivate(afterStop)
    expect(Object.keys(afterStop).filter((name) => name.endsWith('.tmp'))).toEqual([])
  }, 90_000)
})
