import { randomBytes } from 'node:crypto'
import path from 'node:path'

/**
 * The temporary file an atomic write of `target` goes through (same folder, hidden, unique): `.<name>.<pid>.<hex>.tmp`.
 * A write cut short by a kill leaves one behind; the next start removes them (`isTemporaryFileName`).
 */
export function temporaryFileName(target: string): string {
  return path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  )
}

/** Whether a file name is one `temporaryFileName` gives (or the `<name>.<pid>.<ms>.tmp` of earlier versions). */
export function isTemporaryFileName(name: string): boolean {
  return /^\.?[^/\\]+\.\d+\.[0-9a-f]+\.tmp$/.test(name)
}
