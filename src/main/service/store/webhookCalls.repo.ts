import type { Store } from './openStore'
import type { WebhookCall } from './schema'

/** Calls kept; the oldest are dropped first. */
export const MAX_WEBHOOK_CALLS = 300

export function addWebhookCall(store: Store, call: WebhookCall): Promise<void> {
  return store.update((doc) => {
    doc.webhookCalls.push(call)
    if (doc.webhookCalls.length > MAX_WEBHOOK_CALLS)
      doc.webhookCalls.splice(0, doc.webhookCalls.length - MAX_WEBHOOK_CALLS)
  })
}

/** Newest first. */
export function listWebhookCalls(
  store: Store,
  params: { dappIds: string[]; webhookId?: string; limit?: number },
): WebhookCall[] {
  const dappIds = new Set(params.dappIds)
  const out: WebhookCall[] = []
  const limit = params.limit ?? 100
  for (let i = store.data.webhookCalls.length - 1; i >= 0 && out.length < limit; i--) {
    const call = store.data.webhookCalls[i] as WebhookCall
    if (!dappIds.has(call.dappId)) continue
    if (params.webhookId && call.webhookId !== params.webhookId) continue
    out.push(call)
  }
  return out
}

export function findWebhookCall(store: Store, id: string): WebhookCall | undefined {
  return store.data.webhookCalls.find((c) => c.id === id)
}
