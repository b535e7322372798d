import { create } from 'zustand'
import { consoleApi } from '../api/console'
import { dashboardApi, type Webhook } from '../api/dashboard'
import { errorMessage } from '../api/http'
import { failed, type Loadable, loaded, loading } from './loadable'

export type WebhookCall = {
  id: string
  webhookId?: string
  webhookUrl?: string
  method?: string
  at?: string
  request?: unknown
  response?: unknown
  httpStatus?: number | null
  latencyMs?: number | null
  verdict?: string
  error?: string | null
  [key: string]: unknown
}

export type WebhookTestResult = { ok: boolean; result?: unknown; error?: string; notAvailable?: boolean }

type WebhooksState = {
  byApiKey: Record<string, Loadable<Webhook[]>>
  calls: Record<string, Loadable<WebhookCall[]>>
  tests: Record<string, WebhookTestResult & { running: boolean }>
  load: (apiKey: string) => Promise<void>
  loadCalls: (apiKey: string) => Promise<void>
  create: (apiKey: string, input: { webhookUrl: string; requestType: 'GET' | 'POST' }) => Promise<void>
  setActive: (apiKey: string, webhookId: string, active: boolean) => Promise<void>
  remove: (apiKey: string, webhookId: string) => Promise<void>
  test: (apiKey: string, webhookId: string, webhookData: unknown) => Promise<void>
}

/** Normalises the webhook-call log answer (an array, or `{items}`/`{calls}`) into an array. */
function toCalls(value: unknown): WebhookCall[] {
  const list = Array.isArray(value)
    ? value
    : ((value as { items?: unknown[]; calls?: unknown[] } | undefined)?.items ??
      (value as { calls?: unknown[] } | undefined)?.calls ??
      [])
  return list.map((entry, i) => ({ id: String((entry as { id?: unknown }).id ?? i), ...(entry as object) }))
}

export const useWebhooksStore = create<WebhooksState>()((set, get) => {
  const put = (apiKey: string, value: Loadable<Webhook[]>) =>
    set((s) => ({ byApiKey: { ...s.byApiKey, [apiKey]: value } }))
  const putCalls = (apiKey: string, value: Loadable<WebhookCall[]>) =>
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
        putCalls(apiKey, loaded(toCalls(await consoleApi.listWebhookCalls(apiKey))))
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
      set((s) => ({ tests: { ...s.tests, [webhookId]: { ok: false, running: true } } }))
      let outcome: WebhookTestResult
      try {
        outcome = { ok: true, result: await consoleApi.testWebhook(apiKey, webhookId, webhookData) }
      } catch (err) {
        const notAvailable = (err as { notAvailable?: boolean }).notAvailable === true
        outcome = { ok: false, error: errorMessage(err), notAvailable }
      }
      set((s) => ({ tests: { ...s.tests, [webhookId]: { ...outcome, running: false } } }))
      if (outcome.ok) void get().loadCalls(apiKey)
    },
  }
})
