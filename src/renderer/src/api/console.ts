import type { DappPolicies, DappPoliciesPatch, PaymasterView } from '../../../shared/api/dapps'
import type { GasTankChange, GasTankView } from '../../../shared/api/gasTanks'
import type { Session } from '../../../shared/api/session'
import type { SettingsPatch, SettingsView } from '../../../shared/api/settings'
import type { ApplySetupResult } from '../../../shared/api/setup'
import type { SponsorshipList, SponsorshipView } from '../../../shared/api/sponsorships'
import type { TimeUndoView, TimeView } from '../../../shared/api/time'
import type { UserOperationPage, UserOperationView } from '../../../shared/api/userOperations'
import type { WebhookCallList, WebhookCallView } from '../../../shared/api/webhooks'
import type { EntryPointVersion } from '../../../shared/entryPointVersions'
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
import { requestJson } from './http'

/**
 * The console's own API (`/console/api/*`): what dApps do not need but the operator does. Its answers are typed by
 * the service's own schemas (src/shared/api), so a change to an answer breaks the type check here.
 */

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
    requestJson<PaymasterView>(`/console/api/dapps/${enc(apiKey)}`, { method: 'PATCH', body: { active } }),

  getPolicies: (apiKey: string) => requestJson<DappPolicies>(`/console/api/dapps/${enc(apiKey)}/policies`),
  updatePolicies: (apiKey: string, policies: DappPoliciesPatch) =>
    requestJson<DappPolicies>(`/console/api/dapps/${enc(apiKey)}/policies`, {
      method: 'PATCH',
      body: policies,
    }),

  getGasTank: (apiKey: string) => requestJson<GasTankView>(`/console/api/dapps/${enc(apiKey)}/gas-tank`),
  changeGasTank: (
    apiKey: string,
    body: { action: 'deposit' | 'withdraw'; amountWei: string; entryPointVersion: EntryPointVersion },
  ) => requestJson<GasTankChange>(`/console/api/dapps/${enc(apiKey)}/gas-tank`, { method: 'POST', body }),

  listUserOperations: (query: { limit?: number; before?: number; chainId?: number } = {}) =>
    requestJson<UserOperationPage>('/console/api/user-operations', { query }),
  getUserOperation: (hash: string) =>
    requestJson<UserOperationView>(`/console/api/user-operations/${enc(hash)}`),
  listSponsorshipDecisions: (query: { limit?: number; apiKey?: string; sender?: string } = {}) =>
    requestJson<SponsorshipList>('/console/api/sponsorship-decisions', { query }),
  getSponsorshipDecision: (id: string) =>
    requestJson<SponsorshipView>(`/console/api/sponsorship-decisions/${enc(id)}`),
  listWebhookCalls: (apiKey: string) =>
    requestJson<WebhookCallList>(`/console/api/dapps/${enc(apiKey)}/webhook-calls`, {
      query: { limit: 1000 },
    }),
  testWebhook: (apiKey: string, webhookId: string, webhookData: unknown) =>
    requestJson<WebhookCallView>(`/console/api/dapps/${enc(apiKey)}/webhooks/${enc(webhookId)}/test`, {
      method: 'POST',
      body: { webhookData },
    }),

  /**
   * The chain's time and the console's named snapshots of the whole stack (console/time.routes.ts), on the chain
   * `chainId` names (the service's first chain without it).
   */
  getTime: (chainId?: number) => requestJson<TimeView>('/console/api/time', { query: { chainId } }),
  advanceTime: (seconds: number, chainId?: number) =>
    requestJson<TimeView>('/console/api/time/advance', {
      method: 'POST',
      body: { seconds },
      query: { chainId },
    }),
  mineBlocks: (blocks: number, chainId?: number) =>
    requestJson<TimeView>('/console/api/time/mine', { method: 'POST', body: { blocks }, query: { chainId } }),
  takeSnapshot: (name: string, chainId?: number) =>
    requestJson<TimeView>('/console/api/time/snapshots', {
      method: 'POST',
      body: { name },
      query: { chainId },
    }),
  revertToSnapshot: (id: string, chainId?: number) =>
    requestJson<TimeUndoView>(`/console/api/time/snapshots/${enc(id)}/revert`, {
      method: 'POST',
      query: { chainId },
    }),
  resetStack: (chainId?: number) =>
    requestJson<TimeUndoView>('/console/api/time/reset', { method: 'POST', query: { chainId } }),

  getSettings: () => requestJson<SettingsView>('/console/api/settings'),
  updateSettings: (patch: SettingsPatch) =>
    requestJson<SettingsView>('/console/api/settings', { method: 'PATCH', body: patch }),

  /** The setup in the setup file's format (OpstationSetup: the service answers it as a JSON object). */
  exportSetup: () => requestJson<Record<string, unknown>>('/console/api/setup'),
  /** Applies a setup file as parsed from JSON (the service names what is wrong with it). */
  applySetup: (setup: unknown) =>
    requestJson<ApplySetupResult>('/console/api/setup', { method: 'PUT', body: setup }),

  /** The sandbox, on the chain `chainId` names (the service's first chain without it). */
  sandbox: {
    listAccounts: (chainId?: number) =>
      requestJson<SandboxAccount[]>('/console/api/sandbox/accounts', { query: { chainId } }),
    createAccount: (body: CreateSandboxAccountRequest, chainId?: number) =>
      requestJson<SandboxAccount>('/console/api/sandbox/accounts', {
        method: 'POST',
        body,
        query: { chainId },
      }),
    buildUserOperation: (address: string, body: BuildUserOperationRequest, chainId?: number) =>
      requestJson<BuildUserOperationResponse>(
        `/console/api/sandbox/accounts/${enc(address)}/user-operation`,
        { method: 'POST', body, query: { chainId } },
      ),
    signUserOperation: (address: string, body: SignUserOperationRequest, chainId?: number) =>
      requestJson<SignUserOperationResponse>(`/console/api/sandbox/accounts/${enc(address)}/sign`, {
        method: 'POST',
        body,
        query: { chainId },
      }),
    faucet: (body: FaucetRequest, chainId?: number) =>
      requestJson<FaucetResponse>('/console/api/sandbox/faucet', {
        method: 'POST',
        body,
        query: { chainId },
      }),
  },
}
