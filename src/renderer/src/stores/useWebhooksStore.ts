import { create } from 'zustand'
import type { WebhookCallView, WebhookView } from '../../../shared/api/webhooks'
import { consoleApi } from '../api/console'
import { dashboardApi } from '../api/dashboard'
import { errorMessage, isNotAvailable } from '../api/http'
import { failed, type Loadable, loaded, loading } from './loadable'

/** A test call's outcome: the logged call, or why there is none. */
export type WebhookTestResult =
  | { ok: true; call: WebhookCallView }
  | { ok: false; error: string; notAvailable: boolean }

type WebhooksState = {
  byApiKey: Record<string, Loadable<WebhookView[]>>
  calls: Record<string, Loadable<WebhookCallView[]>>
  tests: Record<string, { running: true } | (WebhookTestResult & { running: false })>
  load: (apiKey: string) => Promise<void>
  loadCalls: (apiKey: string) => Promise<void>
  create: (apiKey: string, input: { webhookUrl: string; requestType: 'GET' | 'POST' }) => Promise<void>
  setActive: (apiKey: string, webhookId: string, active: boolean) => Promise<void>
  remove: (apiKey: string, webhookId: string) => Promise<void>
  test: (apiKey: string, webhookId: string, webhookData: unknown) => Promise<void>
}

export const useWebhooksStore = create<WebhooksState>()((set, get) => {
  const put = (apiKey: string, value: Loadable<WebhookView[]>) =>
    set((s) => ({ byApiKey: { ...s.byApiKey, [apiKey]: value } }))
  const putCalls = (apiKey: string, value: Loadable<WebhookCallView[]>) =>
    set((s) => ({ calls: { ...s.calls, [apiKey]: value } }))
  return {
    byApiKey: {},
    calls: {},
    tests: {},
    async load(apiKey) {
      put(apiKey, loading(get().byApiKey[apiKey]))
      try {
        put(apiKey, loaded(await dashboardApi.listWebhooks(apiKey)))
      } catch (err) {
        put(apiKey, failed(get().byApiKey[apiKey], err))
      }
    },
    async loadCalls(apiKey) {
      putCalls(apiKey, loading(get().calls[apiKey]))
      try {
        putCalls(apiKey, loaded((await consoleApi.listWebhookCalls(apiKey)).items))
      } catch (err) {
        putCalls(apiKey, failed(get().calls[apiKey], err))
      }
    },
    async create(apiKey, input) {
      await dashboardApi.createWebhook(apiKey, input)
      await get().load(apiKey)
    },
    async setActive(apiKey, webhookId, active) {
      await dashboardApi.setWebhookActive(apiKey, webhookId, active)
      await get().load(apiKey)
    },
    async remove(apiKey, webhookId) {
      await dashboardApi.deleteWebhook(apiKey, webhookId)
      await get().load(apiKey)
    },
    async test(apiKey, webhookId, webhookData) {
      set((s) => ({ tests: { ...s.tests, [webhookId]: { running: true } } }))
      let outcome: WebhookTestResult
      try {
        outcome = { ok: true, call: await consoleApi.testWebhook(apiKey, webhookId, webhookData) }
      } catch (err) {
        outcome = { ok: false, error: errorMessage(err), notAvailable: isNotAvailable(err) }
      }
      set((s) => ({ tests: { ...s.tests, [webhookId]: { ...outcome, running: false } } }))
      if (outcome.ok) void get().loadCalls(apiKey)
    },
  }
})
