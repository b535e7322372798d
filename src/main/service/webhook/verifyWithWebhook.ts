import type { Webhook, WebhookCall } from '../../../shared/api/webhooks'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import { generateId } from '../store/ids'
import type { Store } from '../store/openStore'
import { addWebhookCall } from '../store/webhookCalls.repo'
import { callWebhook } from './callWebhook'

/**
 * Bodies kept in the call log (characters). A POST body carries the userOp twice (spec section 6), about 3-5 KB
 * with an initCode; the inspector must show it whole, so only unusually large bodies are cut.
 */
const MAX_LOGGED_BODY = 16_384

export type VerifyWithWebhookParameters = {
  store: Store
  events?: EventBus
  log?: Logger
  webhook: Webhook
  /** The chain of the webhook's dApp: its calls are logged on that chain. */
  chainId: number
  webhookData: Record<string, unknown>
  userOp: Record<string, unknown>
  timeoutMs: number
}

/** Calls the dApp's webhook, logs the call (request, response, status, latency) and emits `webhook.called`. */
export async function verifyWithWebhook(params: VerifyWithWebhookParameters): Promise<WebhookCall> {
  const { webhook } = params
  const time = new Date().toISOString()
  const result = await callWebhook({
    webhookUrl: webhook.webhookUrl,
    requestType: webhook.requestType,
    webhookData: params.webhookData,
    userOp: params.userOp,
    timeoutMs: params.timeoutMs,
  })
  const call: WebhookCall = {
    id: generateId(),
    webhookId: webhook.webhookId,
    dappId: webhook.dappId,
    chainId: params.chainId,
    time,
    method: result.method,
    url: result.url,
    requestBody: truncate(result.requestBody),
    status: result.status,
    responseBody: truncate(result.responseBody),
    latencyMs: result.latencyMs,
    verified: result.verified,
    field: result.field,
    error: result.error,
  }
  addWebhookCall(params.store, call)
  params.events?.emit('webhook.called', { id: call.id, webhookId: call.webhookId, verified: call.verified })
  return call
}

function truncate(text: string | null): string | null {
  if (text === null || text.length <= MAX_LOGGED_BODY) return text
  return `${text.slice(0, MAX_LOGGED_BODY)}… (${text.length - MAX_LOGGED_BODY} more characters)`
}
