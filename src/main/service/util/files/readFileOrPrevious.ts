import { readFile } from 'node:fs/promises'
import { previousCopyPath } from './writeFileAtomic'

export type ReadFileOrPreviousReturnType<T> =
  /** The file itself. */
  | { from: 'file'; value: T }
  /** Its previous copy, because the file was missing, empty or did not parse (`reason` says which). */
  | { from: 'previous'; value: T; reason: string }
  /** Neither exists: nothing was ever written. */
  | { from: 'none' }
  /** No complete copy: `reason` names what is wrong with each. */
  | { from: 'unreadable'; reason: string }

/**
 * Reads a file that `writeFileAtomic(file, …, { keepPrevious: true })` writes, falling back to its previous copy
 * when the file is missing, empty or does not parse (a copy an earlier version or another program left damaged).
 * `parse` throws on content that is not complete.
 */
export async function readFileOrPrevious<T>(
  file: string,
  parse: (text: string) => T,
): Promise<ReadFileOrPreviousReturnType<T>> {
  const current = await readParsed(file, parse)
  if (current.ok) return { from: 'file', value: current.value }
  const previousFile = previousCopyPath(file)
  const previous = await readParsed(previousFile, parse)
  if (previous.ok) return { from: 'previous', value: previous.value, reason: `${file} is ${current.problem}` }
  if (current.problem === 'missing' && previous.problem === 'missing') return { from: 'none' }
  return {
    from: 'unreadable',
    reason: `${file} is ${current.problem} and ${previousFile} is ${previous.problem}`,
  }
}

async function readParsed<T>(
  file: string,
  parse: (text: string) => T,
): Promise<{ ok: true; value: T } | { ok: false; problem: string }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, problem: 'missing' }
    return { ok: false, problem: `unreadable (${(err as Error).message})` }
  }
  if (text.trim() === '') return { ok: false, problem: 'empty' }
  try {
    return { ok: true, value: parse(text) }
  } catch (err) {
    return { ok: false, problem: `not a complete file (${(err as Error).message})` }
  }
}
