import type { FastifyInstance } from 'fastify'
import { zeroAddress } from 'viem'
import { z } from 'zod'
import { parseInput } from '../dashboard/fields'
import { NotFoundError } from '../errors'
import type { EventBus } from '../events'
import type { Logger } from '../log'
import { boundedJsonObjectSchema } from '../schemas/boundedJsonSchema'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import type { WebhookCall } from '../store/schema'
import { listWebhookCalls } from '../store/webhookCalls.repo'
import { getWebhook } from '../store/webhooks.repo'
import { verifyWithWebhook } from '../webhook/verifyWithWebhook'
import { findConsoleDapp } from './consoleDapp'

export type WebhookCallRoutesOptions = {
  store: Store
  events?: EventBus
  log?: Logger
  getWebhookTimeoutMs: () => number
}

const ListQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(1000).default(100),
  webhookId: z.string({ error: 'webhookId must be one string' }).optional(),
})

const TestBody = z.object(
  {
    webhookData: boundedJsonObjectSchema({ field: 'webhookData' }).default({}),
    userOp: boundedJsonObjectSchema({ field: 'userOp' }).optional(),
  },
  { error: 'Request body must be a JSON object' },
)

/** A logged call with the names the console reads (`at`, `request`, `response`, `httpStatus`, `verdict`). */
export function toWebhookCallView(call: WebhookCall, webhookUrl?: string) {
  return {
    ...call,
    at: call.time,
    webhookUrl: webhookUrl ?? call.url.split('?')[0],
    request: { method: call.method, url: call.url, body: call.requestBody },
    response: { status: call.status, body: call.responseBody },
    httpStatus: call.status,
    verdict: call.verified ? 'verified' : 'not verified',
  }
}

/**
 * The webhook inspector: `GET /console/api/dapps/:apiKey/webhook-calls?limit&webhookId` (newest first) and
 * `POST /console/api/dapps/:apiKey/webhooks/:webhookId/test` (calls the webhook with `webhookData` and a sample
 * op, logs the call like a real one and returns it).
 */
export async function registerWebhookCallRoutes(
  app: FastifyInstance,
  options: WebhookCallRoutesOptions,
): Promise<void> {
  const { store } = options
  app.get<{ Params: { apiKey: string } }>(
    '/console/api/dapps/:apiKey/webhook-calls',
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      const query = parseInput(ListQuery, request.query ?? {})
      const urls = new Map(store.data.webhooks.map((w) => [w.webhookId, w.webhookUrl]))
      const items = listWebhookCalls(store, {
        dappIds: [dapp.id],
        webhookId: query.webhookId,
        limit: query.limit,
      }).map((c) => toWebhookCallView(c, urls.get(c.webhookId)))
      return sendOk(reply, 'Webhook calls fetched', { items })
    },
  )

  app.post<{ Params: { apiKey: string; webhookId: string } }>(
    '/console/api/dapps/:apiKey/webhooks/:webhookId/test',
    async (request, reply) => {
      const dapp = findConsoleDapp(store, request)
      let webhook: ReturnType<typeof getWebhook>
      try {
        webhook = getWebhook(store, dapp.id, request.params.webhookId)
      } catch {
        throw new NotFoundError('Webhook not found')
      }
      const body = parseInput(TestBody, request.body ?? {})
      const call = await verifyWithWebhook({
        store,
        events: options.events,
        log: options.log,
        webhook,
        webhookData: body.webhookData,
        userOp: body.userOp ?? sampleUserOp,
        timeoutMs: options.getWebhookTimeoutMs(),
      })
      return sendOk(
        reply,
        call.verified ? 'Webhook verified' : 'Webhook did not verify',
        toWebhookCallView(call, webhook.webhookUrl),
      )
    },
  )
}

const sampleUserOp = {
  sender: zeroAddress,
  nonce: '0x0',
  initCode: '0x',
  callData: '0x',
  callGasLimit: '0x0',
  verificationGasLimit: '0x0',
  preVerificationGas: '0x0',
  maxFeePerGas: '0x0',
  maxPriorityFeePerGas: '0x0',
  paymasterAndData: '0x',
  signature: '0x',
}
