import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import type { Webhook } from '../store/schema'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  setWebhookActive,
} from '../store/webhooks.repo'
import { AUTH_AND_API_KEY_REQUIRED, AUTH_TOKEN_REQUIRED, type AuthRule, authenticateDapp } from './auth'
import { jsonObject, parseInput } from './fields'

const PATH = '/api/v2/public/sdk/webhook'
const NOT_FOUND = 'Webhook not found'

const createRule: AuthRule = {
  apiKey: true,
  missingMessage: AUTH_AND_API_KEY_REQUIRED,
  unknownApiKeyMessage: 'Paymaster not found for this apiKey',
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

const CreateBody = jsonObject({
  webhookUrl: z
    .string({
      error: (iss) => (iss.input === undefined ? 'webhookUrl is required' : 'webhookUrl must be a string'),
    })
    .trim()
    .max(2048, { error: 'webhookUrl must be at most 2048 characters' })
    .refine(isHttpUrl, { error: 'webhookUrl must be an http(s) URL' }),
  requestType: z
    .string({
      error: (iss) =>
        iss.input === undefined ? 'requestType is required' : 'requestType must be GET or POST',
    })
    .transform((t) => t.toUpperCase())
    .pipe(z.enum(['GET', 'POST'], { error: 'requestType must be GET or POST' })),
})
const GetQuery = z.object({ webhookId: webhookId.optional() })
const UpdateBody = jsonObject({ webhookId, active: z.boolean({ error: 'active must be a boolean value' }) })
const DeleteBody = jsonObject({ webhookId })

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

export function toWebhookView(webhook: Webhook) {
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

  app.post(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, createRule)
    const body = parseInput(CreateBody, request.body)
    const webhook = await createWebhook(store, {
      dappId: dapp.id,
      webhookUrl: body.webhookUrl,
      requestType: body.requestType,
    })
    return sendOk(reply, 'Webhook created', toWebhookView(webhook))
  })

  app.get(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, getRule)
    const query = parseInput(GetQuery, request.query)
    const webhooks = query.webhookId
      ? [getWebhook(store, dapp.id, query.webhookId)]
      : listWebhooks(store, dapp.id)
    return sendOk(reply, 'Webhook fetched', webhooks.map(toWebhookView))
  })

  app.patch(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, changeRule)
    const body = parseInput(UpdateBody, request.body)
    await setWebhookActive(store, { dappId: dapp.id, webhookId: body.webhookId, active: body.active })
    return sendOk(reply, 'Webhook updated')
  })

  app.delete(PATH, async (request, reply) => {
    const { dapp } = authenticateDapp(store, request, changeRule)
    const body = parseInput(DeleteBody, request.body)
    await deleteWebhook(store, { dappId: dapp.id, webhookId: body.webhookId })
    return sendOk(reply, 'Webhook deleted')
  })
}
