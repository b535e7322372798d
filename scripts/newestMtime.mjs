import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/** The newest modification time (ms) of any file below `dir`; 0 when it does not exist. */
export function newestMtime(dir) {
  if (!existsSync(dir)) return 0
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs)
  }
  return newest
}
