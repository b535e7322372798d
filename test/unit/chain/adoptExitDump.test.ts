import { existsSync } from 'node:fs'
import { readFile, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { adoptExitDump } from '../../../src/main/service/chain/anvil/adoptExitDump'
import { makeTempDir } from '../../helpers/makeTempDir'

/** A chain folder with the service's state file and anvil's exit dump (its mtime `dumpNewerByMs` after the state's). */
async function chainFolder(p: { state?: string; dump?: string; dumpNewerByMs?: number }) {
  const dir = await makeTempDir('opstation-exitdump-')
  const paths = {
    statePath: path.join(dir, 'anvil-state.json'),
    exitDumpPath: path.join(dir, 'anvil-exit-dump.json'),
    fallbackPath: path.join(dir, 'anvil-state.json.last-good'),
  }
  const now = Date.now() / 1000
  if (p.state !== undefined) {
    await writeFile(paths.statePath, p.state)
    await utimes(paths.statePath, now, now)
  }
  if (p.dump !== undefined) {
    await writeFile(paths.exitDumpPath, p.dump)
    const at = now + (p.dumpNewerByMs ?? 0) / 1000
    await utimes(paths.exitDumpPath, at, at)
  }
  return paths
}

describe('adoptExitDump', () => {
  it("adopts anvil's newer, complete dump and keeps the service's file as the fallback", async () => {
    const paths = await chainFolder({ state: '{"block":1}', dump: '{"block":2}', dumpNewerByMs: 5_000 })
    expect(await adoptExitDump(paths)).toBe('adopted')
    expect(await readFile(paths.statePath, 'utf8')).toBe('{"block":2}')
    expect(await readFile(paths.fallbackPath, 'utf8')).toBe('{"block":1}')
    expect(existsSync(paths.exitDumpPath)).toBe(false)
  })

  it('adopts the dump when the service never saved a state file', async () => {
    const paths = await chainFolder({ dump: '{"block":2}' })
    expect(await adoptExitDump(paths)).toBe('adopted')
    expect(await readFile(paths.statePath, 'utf8')).toBe('{"block":2}')
    expect(existsSync(paths.fallbackPath)).toBe(false)
  })

  it("discards a newer dump cut short by a kill and keeps the service's file", async () => {
    const paths = await chainFolder({ state: '{"block":1}', dump: '{"block":2,"acc', dumpNewerByMs: 5_000 })
    expect(await adoptExitDump(paths)).toBe('discarded')
    expect(await readFile(paths.statePath, 'utf8')).toBe('{"block":1}')
    expect(existsSync(paths.exitDumpPath)).toBe(false)
  })

  it("discards a dump older than the service's last save", async () => {
    const paths = await chainFolder({ state: '{"block":3}', dump: '{"block":2}', dumpNewerByMs: -5_000 })
    expect(await adoptExitDump(paths)).toBe('discarded')
    expect(await readFile(paths.statePath, 'utf8')).toBe('{"block":3}')
  })

  it('discards a dump from before the last revert the journal notes, newer than the state file as it is (it holds what the revert undid), and adopts one from after it', async () => {
    const stale = await chainFolder({ state: '{"block":1}', dump: '{"block":2}', dumpNewerByMs: 5_000 })
    const dumpedAt = Date.now() + 5_000
    expect(await adoptExitDump({ ...stale, revertedAt: dumpedAt + 1_000 })).toBe('discarded')
    expect(await readFile(stale.statePath, 'utf8')).toBe('{"block":1}')
    expect(existsSync(stale.exitDumpPath)).toBe(false)

    const fresh = await chainFolder({ state: '{"block":1}', dump: '{"block":2}', dumpNewerByMs: 5_000 })
    expect(await adoptExitDump({ ...fresh, revertedAt: dumpedAt - 2_000 })).toBe('adopted')
    expect(await readFile(fresh.statePath, 'utf8')).toBe('{"block":2}')
  })

  it('does nothing without a dump', async () => {
    const paths = await chainFolder({ state: '{"block":3}' })
    expect(await adoptExitDump(paths)).toBe('none')
    expect(await readFile(paths.statePath, 'utf8')).toBe('{"block":3}')
  })
})
