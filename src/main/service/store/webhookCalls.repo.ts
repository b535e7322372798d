import type { WebhookCall } from '../../../shared/api/webhooks'
import { appendSoon } from './appendSoon'
import type { Store } from './openStore'

/** Calls kept; the oldest are dropped first (the store rewrites the whole document on every change). */
export const MAX_WEBHOOK_CALLS = 200

/** Keeps a call record: readable at once, written with the store's next write (appendSoon.ts). */
export function addWebhookCall(store: Store, call: WebhookCall): void {
  appendSoon(store, 'webhookCalls', call, MAX_WEBHOOK_CALLS)
}

/** Newest first. */
export function listWebhookCalls(
  store: Store,
  params: { dappIds: string[]; webhookId?: string; limit?: number },
): WebhookCall[] {
  const dappIds = new Set(params.dappIds)
  const out: WebhookCall[] = []
  const limit = params.limit ?? 100
  const all = store.data.webhookCalls
  for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
    const call = all[i] as WebhookCall
    if (!dappIds.has(call.dappId)) continue
    if (params.webhookId && call.webhookId !== params.webhookId) continue
    out.push(call)
  }
  return out
}

export function findWebhookCall(store: Store, id: string): WebhookCall | undefined {
  return store.data.webhookCalls.find((c) => c.id === id)
}
