import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import { openStore, type Store } from '../../../src/main/service/store/openStore'

/** A store in a data folder of its own, each call; the folders are removed after each test of the calling file. */
export function makeFreshStores(prefix: string): () => Promise<Store> {
  const dirs: string[] = []
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
  })
  return async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), `opstation-${prefix}-`))
    dirs.push(dir)
    return openStore({ dataDir: dir })
  }
}
