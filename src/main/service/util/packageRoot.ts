import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The folder of Opstation's package.json, found from this file (works from src/ and from bundled out/). */
export function findPackageRoot(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (;;) {
    const candidate = path.join(dir, 'package.json')
    if (existsSync(candidate)) {
      try {
        if ((JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'opstation')
          return dir
      } catch {}
    }
    const parent = path.dirname(dir)
    if (parent === dir) return process.cwd()
    dir = parent
  }
}

export function readPackageVersion(root = findPackageRoot()): string {
  try {
    return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return '0.0.0'
  }
}
