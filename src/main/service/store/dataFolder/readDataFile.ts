import { readFile } from 'node:fs/promises'
import type { z } from 'zod'
import { StartupError } from '../../errors'

/**
 * A small JSON file of the data folder read against its schema: `null` when it does not exist yet; a file that does
 * not parse or fit stops the start with a message naming it (`what`: "The sandbox account file").
 */
export async function readDataFile<T extends z.ZodType>(
  file: string,
  schema: T,
  what: string,
): Promise<z.output<T> | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
  const parsed = schema.safeParse(parseJsonOrUndefined(text))
  if (!parsed.success) throw new StartupError(`${what} ${file} is not readable: fix or remove it`)
  return parsed.data
}

/** The JSON value of `text`, or undefined when it does not parse (a schema then refuses it). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
