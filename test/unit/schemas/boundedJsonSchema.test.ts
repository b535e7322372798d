import { describe, expect, it } from 'vitest'
import {
  boundedJsonObjectSchema,
  findJsonLimitBreach,
} from '../../../src/main/service/schemas/boundedJsonSchema'

/** `{"a":{"a":…{}}}` nested `depth` objects deep, built from text as a client sends it (no recursion). */
const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`)

describe('bounded client JSON', () => {
  it('measures a value nested 10,000 deep without growing the call stack (JSON.stringify overflows on it)', () => {
    const deep = nested(10_000)
    expect(() => JSON.stringify(deep)).toThrow(RangeError)
    expect(findJsonLimitBreach(deep)).toBe('depth')
    expect(findJsonLimitBreach(nested(32))).toBeNull()
    expect(findJsonLimitBreach(nested(33))).toBe('depth')
    expect(findJsonLimitBreach([[[[1]]]], { maxDepth: 3, maxBytes: 100 })).toBe('depth')
  })

  it('bounds the size of the JSON text, counted as it would be written', () => {
    expect(findJsonLimitBreach({ note: 'x'.repeat(64 * 1024) })).toBe('size')
    expect(findJsonLimitBreach({ note: 'x'.repeat(60 * 1024) })).toBeNull()
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))
    expect(findJsonLimitBreach(wide)).toBe('size')
    // About the length of the text (separators counted generously).
    const value = { a: Array.from({ length: 100 }, (_, i) => [i, `item ${i}`, null, true, { b: 'c' }]) }
    const length = JSON.stringify(value).length
    expect(findJsonLimitBreach(value, { maxDepth: 32, maxBytes: Math.ceil(length * 1.1) })).toBeNull()
    expect(findJsonLimitBreach(value, { maxDepth: 32, maxBytes: Math.floor(length * 0.9) })).toBe('size')
  })

  it('answers with a message that says what is allowed', () => {
    const schema = boundedJsonObjectSchema({ field: 'webhookData' })
    expect(schema.safeParse(nested(10_000)).error?.issues[0]?.message).toBe(
      'webhookData must be nested at most 32 levels deep',
    )
    expect(schema.safeParse({ big: 'x'.repeat(70_000) }).error?.issues[0]?.message).toBe(
      'webhookData must be at most 64 KiB as JSON',
    )
    expect(schema.safeParse([1]).error?.issues[0]?.message).toBe('webhookData must be an object')
    expect(schema.parse({ userId: 7, tags: ['a'] })).toEqual({ userId: 7, tags: ['a'] })
  })
})
