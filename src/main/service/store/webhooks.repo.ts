import type { Webhook } from '../../../shared/api/webhooks'
import { NotFoundError } from '../errors'
import { generateId } from './ids'
import type { Store } from './openStore'

const NOT_FOUND = 'Webhook not found'

export async function createWebhook(
  store: Store,
  params: { dappId: string; webhookUrl: string; requestType: 'GET' | 'POST' },
  now = new Date(),
): Promise<Webhook> {
  const webhook: Webhook = {
    webhookId: generateId(),
    dappId: params.dappId,
    webhookUrl: params.webhookUrl,
    requestType: params.requestType,
    active: true,
    createdAt: now.toISOString(),
  }
  await store.update((doc) => {
    doc.webhooks.push(webhook)
  })
  return webhook
}

export function listWebhooks(store: Store, dappId: string): Webhook[] {
  return store.data.webhooks.filter((w) => w.dappId === dappId)
}

export function getWebhook(store: Store, dappId: string, webhookId: string): Webhook {
  const webhook = store.data.webhooks.find((w) => w.dappId === dappId && w.webhookId === webhookId)
  if (!webhook) throw new NotFoundError(NOT_FOUND)
  return webhook
}

export async function setWebhookActive(
  store: Store,
  params: { dappId: string; webhookId: string; active: boolean },
): Promise<Webhook> {
  const webhook = getWebhook(store, params.dappId, params.webhookId)
  return store.update(() => {
    webhook.active = params.active
    return webhook
  })
}

export async function deleteWebhook(
  store: Store,
  params: { dappId: string; webhookId: string },
): Promise<void> {
  const webhook = getWebhook(store, params.dappId, params.webhookId)
  await store.update((doc) => {
    doc.webhooks = doc.webhooks.filter((w) => w !== webhook)
  })
}
