import { z } from 'zod'
import { isoDateSchema } from './fields'

/** A dApp's webhooks and the calls made to them, as the store keeps them and as the APIs show them. */

export const WebhookSchema = z.object({
  webhookId: z.string().min(1),
  dappId: z.string().min(1),
  webhookUrl: z.string().url(),
  requestType: z.enum(['GET', 'POST']),
  active: z.boolean(),
  createdAt: isoDateSchema,
})
export type Webhook = z.infer<typeof WebhookSchema>

/** A webhook as the dashboard API shows it (spec 2.8). */
export const WebhookViewSchema = WebhookSchema.pick({
  webhookId: true,
  webhookUrl: true,
  requestType: true,
  active: true,
}).extend({
  active: WebhookSchema.shape.active.meta({ description: 'Only an active webhook is called' }),
})
export type WebhookView = z.output<typeof WebhookViewSchema>

/** One outbound webhook call with what was sent and received (bounded collection). */
export const WebhookCallSchema = z.object({
  id: z.string().min(1),
  webhookId: z.string().min(1),
  dappId: z.string().min(1),
  /** The dApp's chain (the store's migration 2 -> 3 gave older calls their dApp's). */
  chainId: z.number().int().positive(),
  time: isoDateSchema,
  method: z.enum(['GET', 'POST']),
  url: z.string(),
  requestBody: z.string().nullable(),
  status: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  latencyMs: z.number().nonnegative(),
  verified: z.boolean(),
  /** Which spelling carried the verdict. */
  field: z.enum(['arePoliciesVerified', 'arePoliciesVerifed']).nullable(),
  /** Why not verified (time-out, non-2xx, invalid JSON, missing field). */
  error: z.string().nullable(),
})
export type WebhookCall = z.infer<typeof WebhookCallSchema>

/**
 * A logged call with the names the console reads (`at`, `request`, `response`, `httpStatus`, `verdict`): the answer
 * of the webhook inspector and of a test call.
 */
export const WebhookCallViewSchema = WebhookCallSchema.extend({
  at: z.string().meta({ description: 'When it was called (ISO 8601)' }),
  webhookUrl: z.string(),
  request: z.object({ method: z.enum(['GET', 'POST']), url: z.string(), body: z.string().nullable() }),
  response: z.object({ status: z.number().int().nullable(), body: z.string().nullable() }),
  httpStatus: z.number().int().nullable(),
  verdict: z.enum(['verified', 'not verified']),
})
export type WebhookCallView = z.output<typeof WebhookCallViewSchema>

export const WebhookCallListSchema = z.object({ items: z.array(WebhookCallViewSchema) })
export type WebhookCallList = z.output<typeof WebhookCallListSchema>
