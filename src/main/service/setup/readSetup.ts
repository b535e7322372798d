import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { InvalidSetupError } from './InvalidSetupError'
import { type SetupFile, setupFileSchema } from './setupFileSchema'

/** What names a setup in messages when it is not a file (an object given to startOpstation, a console import). */
export const SETUP_LABEL = 'setup'

export type ReadSetupReturnType = {
  setup: SetupFile
  /** The file as given, or `setup`: the start of every message about it. */
  label: string
}

/**
 * Reads and checks a setup: a path to a JSON file (relative to the working folder), or the parsed object itself.
 * Anything wrong is one InvalidSetupError naming the file and the field, e.g.
 * `setup.json: dapps[0].contracts[1].address must be a 0x address (0x followed by 40 hex digits)`.
 */
export async function readSetup(source: unknown): Promise<ReadSetupReturnType> {
  if (typeof source !== 'string') return { setup: parseSetup(source, SETUP_LABEL), label: SETUP_LABEL }
  let text: string
  try {
    text = await readFile(source, 'utf8')
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code
    throw new InvalidSetupError(`${source} cannot be read (${reason ?? (err as Error).message})`, {
      cause: err,
    })
  }
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (err) {
    throw new InvalidSetupError(`${source} is not valid JSON (${(err as Error).message.split('\n')[0]})`, {
      cause: err,
    })
  }
  return { setup: parseSetup(raw, source), label: source }
}

/** Checks a setup object; the first problem becomes the error's message, prefixed with `label`. */
export function parseSetup(input: unknown, label = SETUP_LABEL): SetupFile {
  const result = setupFileSchema.safeParse(input)
  if (result.success) return result.data
  throw new InvalidSetupError(describeSetupIssue(result.error, label), { data: result.error.issues })
}

/** `setup.json: dapps[0].name must not be empty`; a problem of the whole file reads `setup.json must be an object`. */
export function describeSetupIssue(error: z.ZodError, label: string): string {
  const issue = error.issues[0]
  if (!issue) return `${label} is not a valid setup`
  const where = formatSetupPath(issue.path)
  return where ? `${label}: ${where} ${issue.message}` : `${label} ${issue.message}`
}

/** A path as it reads in JavaScript: `dapps[0].gasTanksEth["0.6"]`. */
export function formatSetupPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (/^[A-Za-z_$][\w$]*$/.test(String(key))) out += out ? `.${String(key)}` : String(key)
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}
