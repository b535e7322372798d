import type { z } from 'zod'

/**
 * Turns the first zod issue into one sentence that names the field, e.g.
 * `params[0].sender: expected a 0x-prefixed 20-byte address`. Custom messages set on a schema win.
 */
export function describeZodError(error: z.ZodError, root = ''): string {
  const issue = error.issues[0]
  if (!issue) return 'invalid input'
  const where = formatPath(root, issue.path)
  return where ? `${where}: ${issue.message}` : issue.message
}

function formatPath(root: string, path: PropertyKey[]): string {
  let out = root
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else out += out ? `.${String(key)}` : String(key)
  }
  return out
}
