import { z } from 'zod'

/** How deep and how large client-supplied JSON the service re-serialises (a webhook body, a logged request) may be. */
export const JSON_LIMITS = { maxDepth: 32, maxBytes: 64 * 1024 } as const

export type JsonLimits = { maxDepth: number; maxBytes: number }

/**
 * What in `value` breaks the limits: `depth` when it nests deeper than `maxDepth` (an object or array is one
 * level), `size` when its JSON text would be longer than `maxBytes` (counted in UTF-16 units, escapes not
 * counted), else null. Walks the value with its own stack, never by recursion, and stops at the first breach: a
 * value nested 10,000 deep is measured without growing the call stack (JSON.stringify would overflow it).
 */
export function findJsonLimitBreach(
  value: unknown,
  limits: JsonLimits = JSON_LIMITS,
): 'depth' | 'size' | null {
  const stack: [unknown, number][] = [[value, 0]]
  let bytes = 0
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number]
    if (typeof item === 'string') bytes += item.length + 2
    else if (typeof item === 'number' || typeof item === 'boolean') bytes += String(item).length
    else if (item === null || item === undefined) bytes += 4
    else if (typeof item === 'object') {
      if (depth + 1 > limits.maxDepth) return 'depth'
      bytes += 2
      if (Array.isArray(item)) {
        for (const child of item) {
          bytes += 1
          stack.push([child, depth + 1])
        }
      } else {
        for (const [key, child] of Object.entries(item)) {
          bytes += key.length + 4
          stack.push([child, depth + 1])
        }
      }
    } else {
      // bigint, function, symbol: not JSON.
      bytes += 8
    }
    if (bytes > limits.maxBytes) return 'size'
  }
  return null
}

/**
 * A JSON object from a client that the service serialises again (webhookData goes into the webhook request and
 * the call log): at most `maxDepth` levels deep and `maxBytes` long. `field` names it in the messages of REST
 * routes (JSON-RPC messages carry the path already).
 */
export function boundedJsonObjectSchema({
  field,
  maxDepth = JSON_LIMITS.maxDepth,
  maxBytes = JSON_LIMITS.maxBytes,
}: {
  field?: string
  maxDepth?: number
  maxBytes?: number
} = {}) {
  const subject = field ? `${field} ` : ''
  return z
    .record(z.string(), z.unknown(), { error: `${subject}must be an object` })
    .superRefine((value, ctx) => {
      const breach = findJsonLimitBreach(value, { maxDepth, maxBytes })
      if (breach === 'depth')
        ctx.addIssue({ code: 'custom', message: `${subject}must be nested at most ${maxDepth} levels deep` })
      else if (breach === 'size')
        ctx.addIssue({
          code: 'custom',
          message: `${subject}must be at most ${Math.round(maxBytes / 1024)} KiB as JSON`,
        })
    })
}
