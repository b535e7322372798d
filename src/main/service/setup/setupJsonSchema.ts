import { z } from 'zod'
import { setupFileSchema } from './setupFileSchema'

/**
 * The JSON Schema of the setup file, generated from its zod schema (the file as written: numbers where strings are
 * read too, fields with defaults optional). Checks that need the ABI parsed or the service's state are not in it.
 * `scripts/writeSetupSchema.mjs` writes it; `docs/setup.schema.json` is a copy a test keeps equal.
 */
export function generateSetupJsonSchema(): Record<string, unknown> {
  const { $schema, ...schema } = z.toJSONSchema(setupFileSchema, { io: 'input', target: 'draft-2020-12' })
  return { $schema, title: 'Opstation setup file', ...schema }
}
