import { readFile, rename, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { nodeFileSystem } from '../../util/files/fileSystemOperations'

/**
 * anvil dumps its own state (on exit, and every few seconds as a backstop) to `exitDumpPath`, never over the
 * service's state file: it writes without a temporary file, so a dump cut short by a kill does not read. When that
 * dump is newer than the state file (anvil outlived the service's last save: a Ctrl-C that reached both, a service
 * killed hard) and reads as JSON, it becomes the state file, and the state file it replaces becomes `fallbackPath`
 * (tried if anvil cannot load the adopted one); otherwise it is removed. anvil does not fsync its dump: it is synced
 * before it is renamed, and the folder after, as writeFileAtomic does. A dump from before the last revert the journal
 * notes is discarded too (`revertedAt`).
 */
export async function adoptExitDump(p: {
  statePath: string
  exitDumpPath: string
  fallbackPath: string
  /**
   * When the write journal last noted a revert (ms since the epoch): a dump from before it holds what the revert undid,
   * and the journal's note is replayed on the service's state file only, so such a dump is discarded.
   */
  revertedAt?: number
}): Promise<'adopted' | 'discarded' | 'none'> {
  const dump = await stat(p.exitDumpPath).catch(() => undefined)
  if (!dump) return 'none'
  const state = await stat(p.statePath).catch(() => undefined)
  const beforeRevert = p.revertedAt !== undefined && dump.mtimeMs <= p.revertedAt
  if (!beforeRevert && (!state || dump.mtimeMs > state.mtimeMs)) {
    try {
      JSON.parse(await readFile(p.exitDumpPath, 'utf8'))
      await nodeFileSystem.syncFile(p.exitDumpPath)
      if (state) await rename(p.statePath, p.fallbackPath)
      await rename(p.exitDumpPath, p.statePath)
      await nodeFileSystem.syncFolder(path.dirname(p.statePath))
      return 'adopted'
    } catch {
      // Cut short (or too large to check): the service's own file stands.
    }
  }
  await rm(p.exitDumpPath, { force: true })
  return 'discarded'
}
