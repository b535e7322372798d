import type { CreatedPaymaster, PaymasterView } from '../../../shared/api/dapps'
import type { SmartContractView } from '../../../shared/api/smartContracts'
import type { WebhookView } from '../../../shared/api/webhooks'
import { requestJson } from './http'

/**
 * The dashboard REST API (spec section 4), the same calls a dApp's backend makes; its answers are typed by the
 * service's own schemas (src/shared/api).
 */

const PAYMASTER = '/api/v2/public/sdk/paymaster'
const SMART_CONTRACT = '/api/v2/public/sdk/smart-contract'
const WEBHOOK = '/api/v2/public/sdk/webhook'

export const dashboardApi = {
  listPaymasters: () => requestJson<PaymasterView[]>(PAYMASTER),
  createPaymaster: (body: { name: string; chainId: number; version: string; type?: string }) =>
    requestJson<CreatedPaymaster>(PAYMASTER, {
      method: 'POST',
      body: { type: 'HYBRID', ...body },
    }),

  listSmartContracts: (apiKey: string) => requestJson<SmartContractView[]>(SMART_CONTRACT, { apiKey }),
  createSmartContract: (
    apiKey: string,
    body: { name: string; address: string; abi: string; whitelistedMethods: string[] },
  ) => requestJson<void>(SMART_CONTRACT, { method: 'POST', apiKey, body }),
  updateWhitelistedMethods: (apiKey: string, address: string, whitelistedMethods: string[]) =>
    requestJson<SmartContractView>(SMART_CONTRACT, {
      method: 'PATCH',
      apiKey,
      body: { address, whitelistedMethods },
    }),
  deleteSmartContract: (apiKey: string, address: string) =>
    requestJson<void>(SMART_CONTRACT, { method: 'DELETE', apiKey, body: { address } }),

  listWebhooks: (apiKey: string) => requestJson<WebhookView[]>(WEBHOOK, { apiKey }),
  createWebhook: (apiKey: string, body: { webhookUrl: string; requestType: 'GET' | 'POST' }) =>
    requestJson<WebhookView>(WEBHOOK, { method: 'POST', apiKey, body }),
  setWebhookActive: (apiKey: string, webhookId: string, active: boolean) =>
    requestJson<void>(WEBHOOK, { method: 'PATCH', apiKey, body: { webhookId, active } }),
  deleteWebhook: (apiKey: string, webhookId: string) =>
    requestJson<void>(WEBHOOK, { method: 'DELETE', apiKey, body: { webhookId } }),
}
