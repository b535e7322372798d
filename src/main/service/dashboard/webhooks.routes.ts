import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Webhook } from '../../../shared/api/webhooks'
import { type WebhookView, WebhookViewSchema } from '../../../shared/api/webhooks'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { jsonObject, parseInput } from '../schemas/inputFields'
import { isHttpUrl } from '../schemas/isHttpUrl'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  setWebhookActive,
} from '../store/webhooks.repo'
import {
  AUTH_AND_API_KEY_REQUIRED,
  AUTH_TOKEN_REQUIRED,
  type AuthRule,
  authenticateDapp,
  UNKNOWN_API_KEY,
} from './auth'

const PATH = '/api/v2/public/sdk/webhook'
const NOT_FOUND = 'Webhook not found'

const createRule: AuthRule = {
  apiKey: true,
  missingMessage: AUTH_AND_API_KEY_REQUIRED,
  unknownApiKeyMessage: UNKNOWN_API_KEY,
}
const getRule: AuthRule = { ...createRule, missingMessage: AUTH_TOKEN_REQUIRED }
const changeRule: AuthRule = {
  apiKey: true,
  missingMessage: AUTH_AND_API_KEY_REQUIRED,
  unknownApiKeyMessage: NOT_FOUND,
}

const webhookId = z
  .string({ error: 'webhookId must be a string' })
  .trim()
  .min(1, { error: 'webhookId must not be empty' })
  .meta({ description: 'From the answer of the creation' })

const CreateBody = jsonObject({
  webhookUrl: z
    .string({
      error: (iss) => (iss.input === undefined ? 'webhookUrl is required' : 'webhookUrl must be a string'),
    })
    .trim()
    .max(2048, { error: 'webhookUrl must be at most 2048 characters' })
    .refine(isHttpUrl, { error: 'webhookUrl must be an http(s) URL' })
    .meta({ description: 'Where the service calls the dApp to decide sponsorship' }),
  requestType: z
    .string({
      error: (iss) =>
        iss.input === undefined ? 'requestType is required' : 'requestType must be GET or POST',
    })
    .meta({ description: 'GET or POST (in any letter case): the HTTP method of the call' })
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(['GET', 'POST'], { error: 'requestType must be GET or POST' })),
})
const GetQuery = z.object({
  webhookId: webhookId
    .optional()
    .meta({ description: 'The webhook to read; without it, every webhook of the dApp' }),
})
const UpdateBody = jsonObject({ webhookId, active: z.boolean({ error: 'active must be a boolean value' }) })
const DeleteBody = jsonObject({ webhookId })

/** What the four routes share in the OpenAPI document. */
const DOC = {
  tag: 'Webhooks',
  auth: 'authTokenAndApiKey',
  missingCredentialMessage: AUTH_AND_API_KEY_REQUIRED,
} as const satisfies Partial<RouteDoc>

export function toWebhookView(webhook: Webhook): WebhookView {
  return {
    webhookId: webhook.webhookId,
    webhookUrl: webhook.webhookUrl,
    requestType: webhook.requestType,
    active: webhook.active,
  }
}

/** `/api/v2/public/sdk/webhook`: create, get, update status, delete (spec 4.3). */
export async function registerWebhookRoutes(app: FastifyInstance, options: { store: Store }): Promise<void> {
  const { store } = options

  app.post(
    PATH,
    withDoc({
      ...DOC,
      summary: "Register the dApp's webhook",
      body: CreateBody,
      data: WebhookViewSchema,
      errors: { 404: `Unknown apiKey ("${UNKNOWN_API_KEY}")` },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, createRule)
      const body = parseInput(CreateBody, request.body)
      const webhook = await createWebhook(store, {
        dappId: dapp.id,
        webhookUrl: body.webhookUrl,
        requestType: body.requestType,
      })
      return sendOk(reply, 'Webhook created', toWebhookView(webhook))
    },
  )

  app.get(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Read a registered webhook (or every webhook of the dApp)',
      missingCredentialMessage: AUTH_TOKEN_REQUIRED,
      query: GetQuery,
      data: z.array(WebhookViewSchema),
      errors: { 404: `Unknown apiKey ("${UNKNOWN_API_KEY}") or webhookId ("${NOT_FOUND}")` },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, getRule)
      const query = parseInput(GetQuery, request.query)
      const webhooks = query.webhookId
        ? [getWebhook(store, dapp.id, query.webhookId)]
        : listWebhooks(store, dapp.id)
      return sendOk(reply, 'Webhook fetched', webhooks.map(toWebhookView))
    },
  )

  app.patch(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Turn the webhook on or off (`active`)',
      body: UpdateBody,
      errors: {
        400: 'Invalid input ("active must be a boolean value")',
        404: `Unknown apiKey or webhookId ("${NOT_FOUND}")`,
      },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, changeRule)
      const body = parseInput(UpdateBody, request.body)
      await setWebhookActive(store, { dappId: dapp.id, webhookId: body.webhookId, active: body.active })
      return sendOk(reply, 'Webhook updated')
    },
  )

  app.delete(
    PATH,
    withDoc({
      ...DOC,
      summary: 'Delete the webhook',
      body: DeleteBody,
      errors: {
        400: 'Invalid input ("webhookId must be a string")',
        404: `Unknown apiKey or webhookId ("${NOT_FOUND}")`,
      },
    }),
    async (request, reply) => {
      const { dapp } = authenticateDapp(store, request, changeRule)
      const body = parseInput(DeleteBody, request.body)
      await deleteWebhook(store, { dappId: dapp.id, webhookId: body.webhookId })
      return sendOk(reply, 'Webhook deleted')
    },
  )
}
