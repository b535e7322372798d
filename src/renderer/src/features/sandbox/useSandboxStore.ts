import { create } from 'zustand'
import type { SandboxAccount, SandboxAccountType } from '../../../../shared/sandbox'
import { consoleApi } from '../../api/console'
import { errorMessage } from '../../api/http'
import { rpcRequest } from '../../api/rpc'
import { failed, idle, type Loadable, loaded, loading } from '../../stores/loadable'
import {
  type ExplanationRequest,
  IDLE_EXPLANATION,
  requestExplanation,
} from '../explain/useExplanationRequest'
import { type ChainRunOutcome, describeChainRun } from './chainRuns'
import { operationToSimulate } from './operationToSimulate'
import {
  createRun,
  type Exchange,
  isBeforeSend,
  nextStep,
  patchStep,
  type Run,
  type RunConfig,
  type StepId,
} from './run'
import { rpcExchange } from './steps/stepContext'
import { STEP_FUNCTIONS } from './steps/stepFunctions'

type SandboxState = {
  /** The chain the sandbox acts on, with several chains (undefined: the service's first, as with one chain). */
  chainId: number | undefined
  /** The chain last picked (kept for the session; the page falls back to the first chain when it is not run). */
  preferredChainId: number | null
  accounts: Loadable<SandboxAccount[]>
  selectedAddress: string | null
  creating: boolean
  faucetBusy: string | null
  faucetMessage: { ok: boolean; text: string } | null
  run: Run | null
  busy: boolean
  /** The run's operation simulated (opstation_simulateUserOperation), without sending it. */
  simulation: ExplanationRequest
  /** How the simulated operation differs from the run's (a failed step: generous limits, signed anyway). */
  simulationNote: string | null
  /** Reads the accounts on a chain (the sandbox's chain without one), which becomes the sandbox's chain. */
  loadAccounts: (chainId?: number) => Promise<void>
  preferChain: (chainId: number) => void
  createAccount: (type: SandboxAccountType) => Promise<void>
  selectAccount: (address: string | null) => void
  faucet: (asset: string, amount: string, symbol: string) => Promise<void>
  start: (config: RunConfig) => void
  reset: () => void
  runNext: () => Promise<boolean>
  runAll: () => Promise<void>
  /** Runs the steps before the send (those left), then simulates the operation they built instead of sending it. */
  simulateRun: () => Promise<void>
  /** How each chain's run of the last "Send on every chain" ended (null before one). */
  chainRuns: ChainRunOutcome[] | null
  /**
   * Sends the same operation on each chain in turn (one run after another, each run's steps shown as it goes);
   * `skipped` are the chains it cannot send on (no dApp there), said as they are.
   */
  runOnChains: (runs: RunConfig[], skipped: ChainRunOutcome[]) => Promise<void>
  /** Manual / interval bundling: asks the bundler to bundle what is pending now. */
  bundleNow: () => Promise<void>
}

const SELECTED_ACCOUNT = 'opstation.sandboxAccount'
const PREFERRED_CHAIN = 'opstation.sandboxChain'

function readPreferredChain(): number | null {
  const stored = Number(sessionStorage.getItem(PREFERRED_CHAIN))
  return Number.isInteger(stored) && stored > 0 ? stored : null
}

/**
 * The sandbox: its accounts, and a run of the steps a dApp's SDK makes for one UserOperation, one step at a time
 * (the steps are plain functions in steps/; this store sequences them and keeps what they report).
 */
export const useSandboxStore = create<SandboxState>()((set, get) => {
  const changeRun = (change: (run: Run) => Run) => set((s) => (s.run ? { run: change(s.run) } : {}))
  const addExchange = (id: StepId, exchange: Exchange) =>
    changeRun((run) =>
      patchStep(run, id, { exchanges: [...(run.steps.find((s) => s.id === id)?.exchanges ?? []), exchange] }),
    )

  return {
    chainId: undefined,
    preferredChainId: readPreferredChain(),
    accounts: idle(),
    selectedAddress: localStorage.getItem(SELECTED_ACCOUNT),
    creating: false,
    faucetBusy: null,
    faucetMessage: null,
    run: null,
    busy: false,
    simulation: IDLE_EXPLANATION,
    simulationNote: null,
    chainRuns: null,

    async loadAccounts(chainId = get().chainId) {
      set({ chainId, accounts: loading(get().accounts) })
      try {
        const list = await consoleApi.sandbox.listAccounts(chainId)
        // Another chain was picked meanwhile: its read says.
        if (get().chainId !== chainId) return
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
        const account = await consoleApi.sandbox.createAccount({ type }, get().chainId)
        await get().loadAccounts()
        get().selectAccount(account.address)
      } finally {
        set({ creating: false })
      }
    },

    preferChain(chainId) {
      sessionStorage.setItem(PREFERRED_CHAIN, String(chainId))
      set({ preferredChainId: chainId })
    },

    selectAccount(address) {
      if (address) localStorage.setItem(SELECTED_ACCOUNT, address)
      set({ selectedAddress: address })
    },

    async faucet(asset, amount, symbol) {
      const address = get().selectedAddress
      if (!address) return
      set({ faucetBusy: asset, faucetMessage: null })
      try {
        await consoleApi.sandbox.faucet({ address, asset, amount }, get().chainId)
        set({ faucetMessage: { ok: true, text: `Sent ${amount} ${symbol}.` } })
        await get().loadAccounts()
      } catch (err) {
        set({ faucetMessage: { ok: false, text: errorMessage(err) } })
      } finally {
        set({ faucetBusy: null })
      }
    },

    start(config) {
      set({ run: createRun(config), simulation: IDLE_EXPLANATION, simulationNote: null, chainRuns: null })
    },

    reset() {
      set({ run: null, simulation: IDLE_EXPLANATION, simulationNote: null })
    },

    async runNext() {
      const run = get().run
      const step = run && nextStep(run)
      if (!run || !step || get().busy) return false
      const id = step.id
      set({ busy: true })
      changeRun((r) => patchStep(r, id, { status: 'running', error: null, exchanges: [], note: null }))
      try {
        await STEP_FUNCTIONS[id]({
          run: get().run ?? run,
          log: (exchange) => addExchange(id, exchange),
          update: (change) => changeRun((r) => ({ ...r, ...change })),
          note: (note) => changeRun((r) => patchStep(r, id, { note })),
        })
        changeRun((r) => patchStep(r, id, { status: 'done' }))
        if (id === 'receipt' || id === 'send') void get().loadAccounts()
        return true
      } catch (err) {
        changeRun((r) => patchStep(r, id, { status: 'failed', error: errorMessage(err) }))
        return false
      } finally {
        set({ busy: false })
      }
    },

    async bundleNow() {
      const run = get().run
      if (!run) return
      try {
        await rpcRequest(run.config.bundlerUrl, 'debug_bundler_sendBundleNow', [], (e) =>
          addExchange('receipt', rpcExchange(e)),
        )
      } catch (err) {
        changeRun((r) => patchStep(r, 'receipt', { note: `bundle now failed: ${errorMessage(err)}` }))
      }
    },

    async simulateRun() {
      if (!get().run) return
      set({ simulation: { ...IDLE_EXPLANATION, loading: true }, simulationNote: null })
      // The steps before the send build, price, sponsor and sign the operation; one that fails stops them.
      while (isBeforeSend(get().run)) {
        if (!(await get().runNext())) break
      }
      const run = get().run
      if (!run?.op || !run.entryPoint) {
        set({
          simulation: {
            ...IDLE_EXPLANATION,
            error: 'The operation could not be built: see the failed step.',
          },
        })
        return
      }
      const { op, note } = await operationToSimulate({ ...run, op: run.op })
      set({
        simulationNote: note,
        simulation: await requestExplanation(run.config.bundlerUrl, 'opstation_simulateUserOperation', [
          op,
          run.entryPoint,
        ]),
      })
    },

    async runOnChains(runs, skipped) {
      const outcomes: ChainRunOutcome[] = [...skipped]
      set({ chainRuns: outcomes })
      for (const config of runs) {
        get().start(config)
        set({ chainRuns: [...outcomes] })
        await get().runAll()
        outcomes.push(describeChainRun(config.chainId ?? 0, get().run))
        set({ chainRuns: [...outcomes] })
      }
    },

    async runAll() {
      while (get().run?.steps.some((s) => s.status !== 'done')) {
        if (!(await get().runNext())) return
      }
    },
  }
})
