import type { WebhookCall } from '../../../shared/api/webhooks'
import { getBatchedAppender } from './batchedAppend'
import type { Store } from './openStore'

/** Calls kept; the oldest are dropped first (the store rewrites the whole document on every change). */
export const MAX_WEBHOOK_CALLS = 200

/** Queues a call record; readable at once, written with the next batch (store/batchedAppend.ts). */
export function addWebhookCall(store: Store, call: WebhookCall): void {
  getBatchedAppender(store, 'webhookCalls', MAX_WEBHOOK_CALLS).add(call)
}

function allWebhookCalls(store: Store): readonly WebhookCall[] {
  const pending = getBatchedAppender(store, 'webhookCalls', MAX_WEBHOOK_CALLS).pending()
  return pending.length ? [...store.data.webhookCalls, ...pending] : store.data.webhookCalls
}

/** Newest first. */
export function listWebhookCalls(
  store: Store,
  params: { dappIds: string[]; webhookId?: string; limit?: number },
): WebhookCall[] {
  const dappIds = new Set(params.dappIds)
  const out: WebhookCall[] = []
  const limit = params.limit ?? 100
  const all = allWebhookCalls(store)
  for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
    const call = all[i] as WebhookCall
    if (!dappIds.has(call.dappId)) continue
    if (params.webhookId && call.webhookId !== params.webhookId) continue
    out.push(call)
  }
  return out
}

export function findWebhookCall(store: Store, id: string): WebhookCall | undefined {
  return allWebhookCalls(store).find((c) => c.id === id)
}
