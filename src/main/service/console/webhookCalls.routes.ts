import type { FastifyInstance } from 'fastify'
import { zeroAddress } from 'viem'
import { z } from 'zod'
import {
  type WebhookCall,
  WebhookCallListSchema,
  type WebhookCallView,
  WebhookCallViewSchema,
} from '../../../shared/api/webhooks'
import { AUTH_TOKEN_REQUIRED } from '../dashboard/auth'
import { type RouteDoc, withDoc } from '../docs/routeDoc'
import { NotFoundError } from '../errors'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import { boundedJsonObjectSchema } from '../schemas/boundedJsonSchema'
import { parseInput } from '../schemas/inputFields'
import { sendOk } from '../server/restEnvelope'
import type { Store } from '../store/openStore'
import { listWebhookCalls } from '../store/webhookCalls.repo'
import { getWebhook } from '../store/webhooks.repo'
import { verifyWithWebhook } from '../webhook/verifyWithWebhook'
import { ConsoleDappParams, DAPP_NOT_FOUND, findConsoleDapp } from './consoleDapp'

export type WebhookCallRoutesOptions = {
  store: Store
  events?: EventBus
  log?: Logger
  getWebhookTimeoutMs: () => number
}

const ListQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(1000).default(100),
  webhookId: z
    .string({ error: 'webhookId must be one string' })
    .optional()
    .meta({ description: "Only this webhook's calls" }),
})

const TestBody = z.object(
  {
    webhookData: boundedJsonObjectSchema({ field: 'webhookData' }).default({}),
    userOp: boundedJsonObjectSchema({ field: 'userOp' }).optional(),
  },
  { error: 'Request body must be a JSON object' },
)

/** What the two routes share in the OpenAPI document. */
const DOC = {
  tag: 'Console: dApps',
  auth: 'authToken',
  missingCredentialMessage: AUTH_TOKEN_REQUIRED,
} as const satisfies Partial<RouteDoc>

export function toWebhookCallView(call: WebhookCall, webhookUrl?: string): WebhookCallView {
  return {
    ...call,
    at: call.time,
    webhookUrl: webhookUrl ?? call.url.split('?')[0] ?? call.url,
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
    withDoc({
      ...DOC,
      summary: "The calls to the dApp's webhooks, newest first, with what was sent and received",
      params: ConsoleDappParams,
      query: ListQuery,
      data: WebhookCallListSchema,
      errors: { 404: `Unknown apiKey ("${DAPP_NOT_FOUND}")` },
    }),
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
    withDoc({
      ...DOC,
      summary:
        'Call the webhook with webhookData and a sample UserOperation, as a sponsorship decision would',
      description: 'The call is logged like a real one; the answer is that log entry.',
      params: ConsoleDappParams.extend({ webhookId: z.string().meta({ description: 'The webhook' }) }),
      body: TestBody,
      bodyRequired: false,
      data: WebhookCallViewSchema,
      errors: { 404: `Unknown apiKey ("${DAPP_NOT_FOUND}") or webhookId ("Webhook not found")` },
    }),
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
        chainId: dapp.chainId,
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
