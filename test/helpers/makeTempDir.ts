import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { onTestFinished } from 'vitest'

/** A fresh folder in the system's temp folder, removed (with what the test left in it) when the test finishes. */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix))
  onTestFinished(() => rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => {}))
  return dir
}
