import { isAddress } from 'viem'
import { z } from 'zod'
import { InvalidInputError } from '../errors'

/** Field schemas whose every failure message names the field, in the dashboard API's wording. */
export function requiredString(field: string, options: { max?: number } = {}) {
  const max = options.max ?? 200
  return z
    .string({
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} must be at most ${max} characters` })
}

export function requiredAddress(field: string) {
  return z
    .string({
      error: (iss) => (iss.input === undefined ? `${field} is required` : `${field} must be a string`),
    })
    .trim()
    .refine((value) => isAddress(value, { strict: false }), {
      error: `${field} must be a valid address (0x followed by 40 hex digits)`,
    })
    .meta({ description: 'An address: 0x followed by 40 hex digits' })
}

export function stringArray(field: string, message = `${field} must be an array`) {
  return z
    .array(z.string({ error: `${field} must contain only strings` }), {
      error: (iss) => (iss.input === undefined ? `${field} is required` : message),
    })
    .max(1000, { error: `${field} must have at most 1000 entries` })
}

export function jsonObject<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, { error: 'Request body must be a JSON object' })
}

/** Parses a request body (or query) with a field schema; a failure is a 400 with the field's message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? undefined)
  if (!result.success) throw new InvalidInputError(result.error.issues[0]?.message ?? 'Invalid request')
  return result.data
}
