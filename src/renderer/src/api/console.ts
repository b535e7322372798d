import type {
  BuildUserOperationRequest,
  BuildUserOperationResponse,
  CreateSandboxAccountRequest,
  FaucetRequest,
  FaucetResponse,
  SandboxAccount,
  SignUserOperationRequest,
  SignUserOperationResponse,
} from '../../../shared/sandbox'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import type { Paymaster } from './dashboard'
import { requestJson } from './http'

/** The console's own API (`/console/api/*`): what dApps do not need but the operator does. */

export type Session = { authToken: string | null; accountId: string | null }

export type SpendingLimit = {
  id?: string
  type: 'PAYMASTER' | 'SMART_ACCOUNT'
  thresholdType: 'COUNT' | 'NATIVE_ASSET'
  threshold: string
  cycleDuration: { value: number; unit: 'hour' | 'day' }
  active?: boolean
}

export type DappPolicies = {
  limits: SpendingLimit[]
  validAfter: number | null
  validUntil: number | null
  premiumPercentage: number
}

export type EntryPointVersion = '0.6' | '0.7' | '0.8'
/** One EntryPoint version's tank of the dApp (same paymasterId, that version's verifying paymaster). */
export type GasTankOfVersion = {
  entryPointVersion: EntryPointVersion
  verifyingPaymaster: string
  balanceWei: string | null
  balanceEth: string | null
}
export type GasTank = {
  paymasterId: string | null
  /** The v0.6 tank's balance (the top-level fields predate v0.7/v0.8). */
  balanceWei: string | null
  tanks?: GasTankOfVersion[]
  [key: string]: unknown
}

export type EditableSettings = {
  /** External node; null = embedded anvil. Takes effect at the next start. */
  rpcUrl: string | null
  bundlingMode: 'auto' | 'interval' | 'manual'
  unsafe: boolean
  webhookTimeoutMs: number
}

export type SettingsView = {
  /** What is saved (applied at start unless a command-line flag overrides it). */
  saved: EditableSettings
  /** What the running service uses now. */
  effective: Omit<EditableSettings, 'rpcUrl'> & { rpcUrl: string | null }
  dataDir: string
  restartRequired: boolean
}

const enc = encodeURIComponent

export const consoleApi = {
  session: () => requestJson<Session>('/console/api/session', { auth: false }),
  /** Exchanges the login token (or the auth token) for a session cookie. */
  login: (token: string) =>
    requestJson<Session>('/console/api/login', { method: 'POST', body: { token }, auth: false }),
  status: () => requestJson<ServiceInfo>('/console/api/status'),
  regenerateAuthToken: () =>
    requestJson<{ authToken: string }>('/console/api/account/auth-token', { method: 'POST' }),

  /** Activates or deactivates a dApp; returns it as the dashboard list shows it. */
  setDappActive: (apiKey: string, active: boolean) =>
    requestJson<Paymaster>(`/console/api/dapps/${enc(apiKey)}`, { method: 'PATCH', body: { active } }),

  getPolicies: (apiKey: string) => requestJson<DappPolicies>(`/console/api/dapps/${enc(apiKey)}/policies`),
  updatePolicies: (apiKey: string, policies: Partial<DappPolicies>) =>
    requestJson<DappPolicies>(`/console/api/dapps/${enc(apiKey)}/policies`, {
      method: 'PATCH',
      body: policies,
    }),

  getGasTank: (apiKey: string) => requestJson<GasTank>(`/console/api/dapps/${enc(apiKey)}/gas-tank`),
  changeGasTank: (
    apiKey: string,
    body: { action: 'deposit' | 'withdraw'; amountWei: string; entryPointVersion?: EntryPointVersion },
  ) => requestJson<GasTank>(`/console/api/dapps/${enc(apiKey)}/gas-tank`, { method: 'POST', body }),

  listUserOperations: (query: { limit?: number; before?: string } = {}) =>
    requestJson<unknown>('/console/api/user-operations', { query }),
  getUserOperation: (hash: string) => requestJson<unknown>(`/console/api/user-operations/${enc(hash)}`),
  listSponsorshipDecisions: (query: { limit?: number; apiKey?: string } = {}) =>
    requestJson<unknown>('/console/api/sponsorship-decisions', { query }),
  getSponsorshipDecision: (id: string) =>
    requestJson<unknown>(`/console/api/sponsorship-decisions/${enc(id)}`),
  listWebhookCalls: (apiKey: string) =>
    requestJson<unknown>(`/console/api/dapps/${enc(apiKey)}/webhook-calls`, { query: { limit: 1000 } }),
  testWebhook: (apiKey: string, webhookId: string, webhookData: unknown) =>
    requestJson<unknown>(`/console/api/dapps/${enc(apiKey)}/webhooks/${enc(webhookId)}/test`, {
      method: 'POST',
      body: { webhookData },
    }),

  getSettings: () => requestJson<SettingsView>('/console/api/settings'),
  updateSettings: (patch: Partial<EditableSettings>) =>
    requestJson<SettingsView>('/console/api/settings', { method: 'PATCH', body: patch }),

  sandbox: {
    listAccounts: () => requestJson<SandboxAccount[]>('/console/api/sandbox/accounts'),
    createAccount: (body: CreateSandboxAccountRequest) =>
      requestJson<SandboxAccount>('/console/api/sandbox/accounts', { method: 'POST', body }),
    buildUserOperation: (address: string, body: BuildUserOperationRequest) =>
      requestJson<BuildUserOperationResponse>(
        `/console/api/sandbox/accounts/${enc(address)}/user-operation`,
        {
          method: 'POST',
          body,
        },
      ),
    signUserOperation: (address: string, body: SignUserOperationRequest) =>
      requestJson<SignUserOperationResponse>(`/console/api/sandbox/accounts/${enc(address)}/sign`, {
        method: 'POST',
        body,
      }),
    faucet: (body: FaucetRequest) =>
      requestJson<FaucetResponse>('/console/api/sandbox/faucet', { method: 'POST', body }),
  },
}
