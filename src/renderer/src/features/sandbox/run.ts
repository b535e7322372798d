import type { SandboxAccount, SandboxCall, UserOperationJson } from '../../../../shared/sandbox'

/** Who pays: the dApp's gas tank, the account in an ERC20 token, or the account in ETH. */
export type SandboxMode = 'SPONSORED' | 'ERC20' | 'SELF'
export type StepId = 'build' | 'fees' | 'estimate' | 'quote' | 'sponsor' | 'sign' | 'send' | 'receipt'
export type StepStatus = 'idle' | 'running' | 'done' | 'failed'

/** A request a step made and its answer, as the step shows them. */
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
  /** The chain it sends on, with several chains (its URLs are that chain's); undefined: the service's first. */
  chainId?: number
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

/** A run of the steps a dApp's SDK makes for one UserOperation, and what they produced so far. */
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

/** A new run of the mode's steps, none run yet. */
export function createRun(config: RunConfig, now = Date.now()): Run {
  return {
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
    startedAt: now,
  }
}

/** The run with one step changed. */
export function patchStep(run: Run, id: StepId, change: Partial<Step>): Run {
  return { ...run, steps: run.steps.map((st) => (st.id === id ? { ...st, ...change } : st)) }
}

/** The step to run next: the first one not done (a failed one is retried). */
export function nextStep(run: Run): Step | undefined {
  return run.steps.find((s) => s.status !== 'done')
}

/** Whether the run's next step comes before the operation is sent (build, fees, estimate, quote, sponsor, sign). */
export function isBeforeSend(run: Run | null): boolean {
  const step = run ? nextStep(run) : undefined
  return step !== undefined && step.id !== 'send' && step.id !== 'receipt'
}
