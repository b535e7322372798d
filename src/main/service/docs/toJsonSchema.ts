import { z } from 'zod'

/** A JSON Schema as z.toJSONSchema writes it. */
export type JsonSchema = { [key: string]: unknown }

/** Draft 2020-12 is OpenAPI 3.1's dialect; OpenRPC 1.x schemas are draft-07. */
export type JsonSchemaTarget = 'draft-2020-12' | 'draft-07'

/**
 * The JSON Schema of a zod schema: `input` for what a client sends (a body before its transforms and defaults, so
 * optional fields with a default are not required), `output` for what the service answers. Every schema documented
 * must be representable: a transform in an answer's schema, or a bigint, fails here (and in the documents' tests)
 * rather than turning into an empty schema.
 */
export function toJsonSchema(
  schema: z.ZodType,
  io: 'input' | 'output',
  label = 'a schema',
  target: JsonSchemaTarget = 'draft-2020-12',
): JsonSchema {
  try {
    const { $schema: _, ...json } = z.toJSONSchema(schema, {
      io,
      target,
      // `.int()` says "a safe integer" with bounds no reader needs.
      override: ({ jsonSchema }) => {
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
      },
    }) as JsonSchema
    return json
  } catch (err) {
    throw new Error(`Cannot document ${label}: ${(err as Error).message}`, { cause: err })
  }
}
