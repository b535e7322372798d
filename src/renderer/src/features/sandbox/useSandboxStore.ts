import { create } from 'zustand'
import type {
  SandboxAccount,
  SandboxAccountType,
  SandboxCall,
  UserOperationJson,
} from '../../../../shared/sandbox'
import { consoleApi } from '../../api/console'
import { ApiError, errorMessage, requestJson } from '../../api/http'
import { type RpcExchange, rpcRequest } from '../../api/rpc'
import { failed, idle, type Loadable, loaded, loading } from '../../stores/loadable'

export type SandboxMode = 'SPONSORED' | 'ERC20' | 'SELF'
export type StepId = 'build' | 'fees' | 'estimate' | 'quote' | 'sponsor' | 'sign' | 'send' | 'receipt'
export type StepStatus = 'idle' | 'running' | 'done' | 'failed'

export type Exchange = {
  label: string
  url: string
  request: unknown
  response: unknown
  httpStatus?: number
  ms?: number
}

export type Step = {
  id: StepId
  title: string
  status: StepStatus
  exchanges: Exchange[]
  error: string | null
  /** A short result line ("sponsored", "gas 123,456", …). */
  note: string | null
}

export type RunConfig = {
  account: SandboxAccount
  apiKey: string
  paymasterUrl: string
  bundlerUrl: string
  mode: SandboxMode
  /** ERC20 mode: the fee token. */
  feeToken: string | null
  tokenPaymaster: string | null
  calls: SandboxCall[]
  webhookData: unknown
}

export type Run = {
  config: RunConfig
  steps: Step[]
  op: UserOperationJson | null
  entryPoint: string | null
  userOpHash: string | null
  receipt: unknown
  /** Why the paymaster declined, from its decision log. */
  declined: { reason: string | null; decisionId: string | null } | null
  startedAt: number
}

const TITLES: Record<StepId, string> = {
  build: 'Build the UserOperation',
  fees: 'Gas prices (biconomy_getGasFeeValues)',
  estimate: 'Estimate gas (eth_estimateUserOperationGas)',
  quote: 'Token fee quote (pm_getFeeQuoteOrData)',
  sponsor: 'Paymaster (pm_sponsorUserOperation)',
  sign: 'Sign with the account owner',
  send: 'Send (eth_sendUserOperation)',
  receipt: 'Receipt (eth_getUserOperationReceipt)',
}

/** The calls each mode makes, in the order the Biconomy SDK makes them. */
export function stepsFor(mode: SandboxMode): StepId[] {
  if (mode === 'SPONSORED') return ['build', 'fees', 'sponsor', 'sign', 'send', 'receipt']
  if (mode === 'ERC20') return ['build', 'fees', 'estimate', 'quote', 'sponsor', 'sign', 'send', 'receipt']
  return ['build', 'fees', 'estimate', 'sign', 'send', 'receipt']
}

const MAX_UINT256 = (1n << 256n) - 1n
const hex = (v: unknown): string => {
  if (typeof v === 'string' && v.startsWith('0x')) return `0x${BigInt(v).toString(16)}`
  return `0x${BigInt(v as string | number).toString(16)}`
}

const GAS_FIELDS = [
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
]

/**
 * The op with the fields a bundler estimate or a paymaster answer gave: gas limits as 0x-hex (Biconomy's answer
 * mixes numbers and strings), paymaster fields as they are; the estimate's validity window is not an op field.
 */
function withGasFields(op: UserOperationJson, fields: Record<string, unknown>): UserOperationJson {
  const next: UserOperationJson = { ...op }
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || key === 'validAfter' || key === 'validUntil') continue
    if (key === 'maxFeePerGas' || key === 'maxPriorityFeePerGas') continue
    next[key] = GAS_FIELDS.includes(key) ? hex(value) : value
  }
  return next
}

/** approve(spender, max) on a token: what the SDK prepends in ERC20 mode so the token paymaster can charge. */
function approveCall(token: string, spender: string): SandboxCall {
  const data = `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${MAX_UINT256.toString(16).padStart(64, '0')}`
  return { to: token, value: '0', data }
}

type SandboxState = {
  accounts: Loadable<SandboxAccount[]>
  selectedAddress: string | null
  creating: boolean
  faucetBusy: string | null
  faucetMessage: { ok: boolean; text: string } | null
  run: Run | null
  busy: boolean
  loadAccounts: () => Promise<void>
  createAccount: (type: SandboxAccountType) => Promise<void>
  selectAccount: (address: string | null) => void
  faucet: (asset: string, amount: string, symbol: string) => Promise<void>
  start: (config: RunConfig) => void
  reset: () => void
  runNext: () => Promise<boolean>
  runAll: () => Promise<void>
  /** Manual / interval bundling: asks the bundler to bundle what is pending now. */
  bundleNow: () => Promise<void>
}

export const useSandboxStore = create<SandboxState>()((set, get) => {
  const patchStep = (id: StepId, change: Partial<Step>) =>
    set((s) =>
      s.run
        ? { run: { ...s.run, steps: s.run.steps.map((st) => (st.id === id ? { ...st, ...change } : st)) } }
        : {},
    )
  const addExchange = (id: StepId, exchange: Exchange) =>
    set((s) =>
      s.run
        ? {
            run: {
              ...s.run,
              steps: s.run.steps.map((st) =>
                st.id === id ? { ...st, exchanges: [...st.exchanges, exchange] } : st,
              ),
            },
          }
        : {},
    )
  const patchRun = (change: Partial<Run>) => set((s) => (s.run ? { run: { ...s.run, ...change } } : {}))
  const rpcLog = (id: StepId) => (e: RpcExchange) =>
    addExchange(id, {
      label: e.request.method,
      url: e.url,
      request: e.request,
      response: e.response,
      httpStatus: e.httpStatus,
      ms: e.ms,
    })

  /** A console API call whose request and response are shown in the step. */
  async function consoleCall<T>(
    id: StepId,
    label: string,
    url: string,
    body: unknown,
    call: () => Promise<T>,
  ): Promise<T> {
    const started = performance.now()
    try {
      const result = await call()
      addExchange(id, {
        label,
        url,
        request: body,
        response: result,
        ms: Math.round(performance.now() - started),
      })
      return result
    } catch (err) {
      addExchange(id, {
        label,
        url,
        request: body,
        response: { error: errorMessage(err) },
        httpStatus: err instanceof ApiError ? err.status : undefined,
        ms: Math.round(performance.now() - started),
      })
      throw err
    }
  }

  async function execute(step: StepId, run: Run): Promise<void> {
    const { config } = run
    const op = run.op
    switch (step) {
      case 'build': {
        const calls =
          config.mode === 'ERC20' && config.feeToken && config.tokenPaymaster
            ? [approveCall(config.feeToken, config.tokenPaymaster), ...config.calls]
            : config.calls
        const body = { calls }
        const url = `/console/api/sandbox/accounts/${config.account.address}/user-operation`
        const built = await consoleCall(step, 'build', url, body, () =>
          consoleApi.sandbox.buildUserOperation(config.account.address, body),
        )
        patchRun({ op: built.userOperation, entryPoint: built.entryPoint })
        patchStep(step, {
          note: built.deployed
            ? 'account deployed'
            : config.account.type === 'SIMPLE_7702_V08'
              ? 'first operation: carries the EIP-7702 authorization (0x7702 factory, eip7702Auth)'
              : built.entryPointVersion === '0.6'
                ? 'first operation: deploys the account (initCode)'
                : 'first operation: deploys the account (factory, factoryData)',
        })
        return
      }
      case 'fees': {
        const fees = await rpcRequest<{ maxFeePerGas: string; maxPriorityFeePerGas: string }>(
          config.bundlerUrl,
          'biconomy_getGasFeeValues',
          [],
          rpcLog(step),
        )
        if (!op) throw new Error('build the operation first')
        patchRun({
          op: {
            ...op,
            maxFeePerGas: hex(fees.maxFeePerGas),
            maxPriorityFeePerGas: hex(fees.maxPriorityFeePerGas),
          },
        })
        patchStep(step, { note: `maxFeePerGas ${BigInt(fees.maxFeePerGas).toLocaleString('en-US')} wei` })
        return
      }
      case 'estimate': {
        if (!op || !run.entryPoint) throw new Error('build the operation first')
        const est = await rpcRequest<Record<string, string | number>>(
          config.bundlerUrl,
          'eth_estimateUserOperationGas',
          [op, run.entryPoint],
          rpcLog(step),
        )
        patchRun({ op: withGasFields(op, est) })
        patchStep(step, {
          note: `call ${Number(est.callGasLimit).toLocaleString('en-US')} · verification ${Number(est.verificationGasLimit).toLocaleString('en-US')} · preVerification ${Number(est.preVerificationGas).toLocaleString('en-US')}`,
        })
        return
      }
      case 'quote': {
        if (!op) throw new Error('build the operation first')
        const quote = await rpcRequest<{
          feeQuotes?: { symbol: string; maxGasFee: number; tokenAddress: string }[]
        }>(
          config.paymasterUrl,
          'pm_getFeeQuoteOrData',
          [
            op,
            {
              mode: 'ERC20',
              calculateGasLimits: true,
              entryPoint: run.entryPoint,
              tokenInfo: {
                tokenList: config.feeToken ? [config.feeToken] : [],
                preferredToken: config.feeToken ?? undefined,
              },
            },
          ],
          rpcLog(step),
        )
        const q =
          quote.feeQuotes?.find((f) => f.tokenAddress.toLowerCase() === config.feeToken?.toLowerCase()) ??
          quote.feeQuotes?.[0]
        patchStep(step, { note: q ? `at most ${q.maxGasFee} ${q.symbol}` : 'no quote for this token' })
        return
      }
      case 'sponsor': {
        if (!op) throw new Error('build the operation first')
        const context =
          config.mode === 'ERC20'
            ? {
                mode: 'ERC20',
                calculateGasLimits: true,
                expiryDuration: 300,
                entryPoint: run.entryPoint,
                tokenInfo: { feeTokenAddress: config.feeToken },
              }
            : {
                mode: 'SPONSORED',
                calculateGasLimits: true,
                expiryDuration: 300,
                entryPoint: run.entryPoint,
                sponsorshipInfo: {
                  webhookData: config.webhookData,
                  // What Biconomy's SDK sends for its Smart Account v2; other accounts have no such name.
                  ...(config.account.type === 'SMART_ACCOUNT_V2'
                    ? { smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } }
                    : {}),
                },
              }
        const result = await rpcRequest<Record<string, string | number>>(
          config.paymasterUrl,
          'pm_sponsorUserOperation',
          [op, context],
          rpcLog(step),
        )
        // v0.6 answers paymasterAndData ("0x" when not sponsored); v0.7/v0.8 the ERC-7769 paymaster fields.
        const { mode: _mode, MODE: _MODE, ...fields } = result
        const next = withGasFields(op, fields)
        const sponsored =
          'paymaster' in fields ? Boolean(fields.paymaster) : String(fields.paymasterAndData ?? '0x') !== '0x'
        patchRun({ op: next })
        if (!sponsored) {
          const declined = await findDecision(config.apiKey, config.account.address)
          patchRun({ declined })
          throw new Error(`Not sponsored${declined.reason ? `: ${declined.reason}` : ' (no paymaster data)'}`)
        }
        patchStep(step, { note: config.mode === 'ERC20' ? 'token paymaster signed' : 'sponsored' })
        return
      }
      case 'sign': {
        if (!op) throw new Error('build the operation first')
        const url = `/console/api/sandbox/accounts/${config.account.address}/sign`
        const body = { userOperation: op }
        const signed = await consoleCall(step, 'sign', url, body, () =>
          consoleApi.sandbox.signUserOperation(config.account.address, body),
        )
        patchRun({ op: signed.userOperation, userOpHash: signed.userOpHash })
        patchStep(step, { note: `userOpHash ${signed.userOpHash.slice(0, 10)}…` })
        return
      }
      case 'send': {
        if (!op || !run.entryPoint) throw new Error('build the operation first')
        const hash = await rpcRequest<string>(
          config.bundlerUrl,
          'eth_sendUserOperation',
          [op, run.entryPoint],
          rpcLog(step),
        )
        patchRun({ userOpHash: hash })
        patchStep(step, { note: 'accepted by the bundler' })
        return
      }
      case 'receipt': {
        const hash = run.userOpHash
        if (!hash) throw new Error('send the operation first')
        const deadline = Date.now() + 60_000
        let polls = 0
        while (Date.now() < deadline) {
          polls += 1
          const receipt = await rpcRequest<Record<string, unknown> | null>(
            config.bundlerUrl,
            'eth_getUserOperationReceipt',
            [hash],
            (e) => {
              // The first poll and the one that finds the receipt are shown.
              if (polls === 1 || (e.response as { result?: unknown } | undefined)?.result) rpcLog(step)(e)
            },
          )
          if (receipt) {
            patchRun({ receipt })
            const success = String(receipt.success) === 'true'
            const tx = (receipt.receipt as { transactionHash?: string } | undefined)?.transactionHash
            patchStep(step, {
              note: `${success ? 'mined' : 'mined, but the call reverted'} after ${polls} poll${polls === 1 ? '' : 's'}${tx ? ` · tx ${tx.slice(0, 10)}…` : ''}`,
            })
            if (!success)
              throw new Error(
                `The operation was mined but its call reverted${receipt.reason ? `: ${String(receipt.reason)}` : ''}`,
              )
            return
          }
          patchStep(step, {
            note: `waiting for the bundle to be mined… (${polls} poll${polls === 1 ? '' : 's'})`,
          })
          await new Promise((r) => setTimeout(r, 500))
        }
        throw new Error('No receipt after 60 s: see the operation in Activity for its status')
      }
    }
  }

  return {
    accounts: idle(),
    selectedAddress: localStorage.getItem('opstation.sandboxAccount'),
    creating: false,
    faucetBusy: null,
    faucetMessage: null,
    run: null,
    busy: false,

    async loadAccounts() {
      set({ accounts: loading(get().accounts) })
      try {
        const list = await consoleApi.sandbox.listAccounts()
        set({ accounts: loaded(list) })
        const selected = get().selectedAddress
        if (!selected || !list.some((a) => a.address === selected))
          get().selectAccount(list[0]?.address ?? null)
      } catch (err) {
        set({ accounts: failed(get().accounts, err) })
      }
    },

    async createAccount(type) {
      set({ creating: true })
      try {
        const account = await consoleApi.sandbox.createAccount({ type })
        await get().loadAccounts()
        get().selectAccount(account.address)
      } finally {
        set({ creating: false })
      }
    },

    selectAccount(address) {
      if (address) localStorage.setItem('opstation.sandboxAccount', address)
      set({ selectedAddress: address })
    },

    async faucet(asset, amount, symbol) {
      const address = get().selectedAddress
      if (!address) return
      set({ faucetBusy: asset, faucetMessage: null })
      try {
        await consoleApi.sandbox.faucet({ address, asset, amount })
        set({ faucetMessage: { ok: true, text: `Sent ${amount} ${symbol}.` } })
        await get().loadAccounts()
      } catch (err) {
        set({ faucetMessage: { ok: false, text: errorMessage(err) } })
      } finally {
        set({ faucetBusy: null })
      }
    },

    start(config) {
      set({
        run: {
          config,
          steps: stepsFor(config.mode).map((id) => ({
            id,
            title: TITLES[id],
            status: 'idle',
            exchanges: [],
            error: null,
            note: null,
          })),
          op: null,
          entryPoint: null,
          userOpHash: null,
          receipt: null,
          declined: null,
          startedAt: Date.now(),
        },
      })
    },

    reset() {
      set({ run: null })
    },

    async runNext() {
      const run = get().run
      const step = run?.steps.find((s) => s.status !== 'done')
      if (!run || !step || get().busy) return false
      set({ busy: true })
      patchStep(step.id, { status: 'running', error: null, exchanges: [], note: null })
      try {
        await execute(step.id, get().run as Run)
        patchStep(step.id, { status: 'done' })
        if (step.id === 'receipt' || step.id === 'send') void get().loadAccounts()
        return true
      } catch (err) {
        patchStep(step.id, { status: 'failed', error: errorMessage(err) })
        return false
      } finally {
        set({ busy: false })
      }
    },

    async bundleNow() {
      const run = get().run
      if (!run) return
      try {
        await rpcRequest(run.config.bundlerUrl, 'debug_bundler_sendBundleNow', [], rpcLog('receipt'))
      } catch (err) {
        patchStep('receipt', { note: `bundle now failed: ${errorMessage(err)}` })
      }
    },

    async runAll() {
      while (get().run?.steps.some((s) => s.status !== 'done')) {
        if (!(await get().runNext())) return
      }
    },
  }
})

async function findDecision(
  apiKey: string,
  sender: string,
): Promise<{ reason: string | null; decisionId: string | null }> {
  try {
    const result = await requestJson<{ items?: { id: string; reason: string | null; sponsored: boolean }[] }>(
      '/console/api/sponsorship-decisions',
      {
        query: { apiKey, sender, limit: 1 },
      },
    )
    const latest = result.items?.[0]
    return { reason: latest?.reason ?? null, decisionId: latest?.id ?? null }
  } catch {
    return { reason: null, decisionId: null }
  }
}
