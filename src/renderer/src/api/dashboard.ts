import { requestJson } from './http'

/** The dashboard REST API (spec section 4), the same calls a dApp's backend makes. */

export type Paymaster = {
  name: string
  chainId: number
  apiKey: string
  type?: string
  version?: string
  active?: boolean
  paymasterId?: string | null
  createdAt?: string
}

export type SmartContract = {
  name: string
  address: string
  abi: string
  whitelistedMethods: string[]
  methods: string[]
}

export type Webhook = {
  webhookId: string
  webhookUrl: string
  requestType: 'GET' | 'POST'
  active: boolean
}

const PAYMASTER = '/api/v2/public/sdk/paymaster'
const SMART_CONTRACT = '/api/v2/public/sdk/smart-contract'
const WEBHOOK = '/api/v2/public/sdk/webhook'

export const dashboardApi = {
  listPaymasters: () => requestJson<Paymaster[]>(PAYMASTER),
  createPaymaster: (body: { name: string; chainId: number; version: string; type?: string }) =>
    requestJson<Pick<Paymaster, 'name' | 'chainId' | 'apiKey'>>(PAYMASTER, {
      method: 'POST',
      body: { type: 'HYBRID', ...body },
    }),

  listSmartContracts: (apiKey: string) => requestJson<SmartContract[]>(SMART_CONTRACT, { apiKey }),
  createSmartContract: (
    apiKey: string,
    body: { name: string; address: string; abi: string; whitelistedMethods: string[] },
  ) => requestJson<void>(SMART_CONTRACT, { method: 'POST', apiKey, body }),
  updateWhitelistedMethods: (apiKey: string, address: string, whitelistedMethods: string[]) =>
    requestJson<SmartContract>(SMART_CONTRACT, {
      method: 'PATCH',
      apiKey,
      body: { address, whitelistedMethods },
    }),
  deleteSmartContract: (apiKey: string, address: string) =>
    requestJson<void>(SMART_CONTRACT, { method: 'DELETE', apiKey, body: { address } }),

  listWebhooks: (apiKey: string) => requestJson<Webhook[]>(WEBHOOK, { apiKey }),
  createWebhook: (apiKey: string, body: { webhookUrl: string; requestType: 'GET' | 'POST' }) =>
    requestJson<Webhook>(WEBHOOK, { method: 'POST', apiKey, body }),
  setWebhookActive: (apiKey: string, webhookId: string, active: boolean) =>
    requestJson<void>(WEBHOOK, { method: 'PATCH', apiKey, body: { webhookId, active } }),
  deleteWebhook: (apiKey: string, webhookId: string) =>
    requestJson<void>(WEBHOOK, { method: 'DELETE', apiKey, body: { webhookId } }),
}
