import { z } from 'zod'

/** The REST envelope of a success (spec 2.7): `{statusCode: 200, message}` and `data` when the route returns some. */
export function createEnvelopeSchema(data?: z.ZodType) {
  return z.object({
    statusCode: z.literal(200),
    message: z.string().meta({ description: 'What was done, e.g. "Webhook created"' }),
    ...(data ? { data } : {}),
  })
}

/** The REST envelope of a failure (spec section 7): the HTTP status and the message. */
export const ErrorEnvelopeSchema = z.object({
  statusCode: z.number().int().meta({ description: 'The HTTP status' }),
  message: z.string().meta({ description: 'What is wrong, e.g. "Auth token is required in the headers"' }),
})
