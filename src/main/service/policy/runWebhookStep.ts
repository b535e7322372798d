import type { Dapp } from '../../../shared/api/dapps'
import type { EventBus } from '../events'
import type { Logger } from '../log/logger'
import type { Store } from '../store/openStore'
import { listWebhooks } from '../store/webhooks.repo'
import { verifyWithWebhook } from '../webhook/verifyWithWebhook'
import type { StepLog } from './createStepLog'

export type RunWebhookStepParameters = {
  store: Store
  events?: EventBus
  log?: Logger
  dapp: Dapp
  webhookData: Record<string, unknown> | undefined
  userOp: Record<string, unknown>
  timeoutMs: number
  steps: StepLog
}

/**
 * Step 5 (spec section 6): when the dApp has an active webhook and the request carries webhookData, every
 * active webhook must verify the op. Returns whether the step passed and the id of the (first) logged call.
 */
export async function runWebhookStep(
  params: RunWebhookStepParameters,
): Promise<{ ok: boolean; callId: string | null }> {
  const { steps } = params
  const webhooks = listWebhooks(params.store, params.dapp.id).filter((w) => w.active)
  if (webhooks.length === 0) {
    steps.add('webhook', { outcome: 'skip', detail: 'No active webhook is registered' })
    return { ok: true, callId: null }
  }
  if (!params.webhookData) {
    steps.add('webhook', {
      outcome: 'skip',
      detail: 'The request carries no webhookData, so the webhook is not called',
    })
    return { ok: true, callId: null }
  }
  const webhookData = params.webhookData
  const calls = await Promise.all(
    webhooks.map((webhook) =>
      verifyWithWebhook({
        store: params.store,
        events: params.events,
        log: params.log,
        webhook,
        chainId: params.dapp.chainId,
        webhookData,
        userOp: params.userOp,
        timeoutMs: params.timeoutMs,
      }),
    ),
  )
  const failed = calls.find((c) => !c.verified)
  const describe = (c: (typeof calls)[number]) =>
    `${c.method} ${c.url.split('?')[0]} → ${c.status ?? 'no response'} in ${c.latencyMs} ms`
  if (failed) {
    steps.add('webhook', {
      outcome: 'fail',
      detail: `Webhook did not verify: ${failed.error} (${describe(failed)})`,
    })
    return { ok: false, callId: failed.id }
  }
  steps.add('webhook', {
    outcome: 'pass',
    detail: calls.map((c) => `Webhook verified with ${c.field}: true (${describe(c)})`).join('; '),
  })
  return { ok: true, callId: calls[0]?.id ?? null }
}
