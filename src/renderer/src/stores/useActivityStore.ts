import { create } from 'zustand'
import { consoleApi } from '../api/console'
import { errorMessage, isNotAvailable } from '../api/http'
import { failed, type Loadable, loaded, loading } from './loadable'

/**
 * The live feed: UserOperations (from the bundler's console routes) and sponsorship decisions (from the
 * paymaster's). Records are normalised into one row shape; `raw` keeps everything the service sent.
 */
export type FeedEntry = {
  key: string
  kind: 'userOperation' | 'sponsorship'
  /** ms since epoch */
  at: number
  status: string
  sender: string | null
  userOpHash: string | null
  apiKey: string | null
  dappName: string | null
  sponsored: boolean | null
  reason: string | null
  mode: string | null
  /** wei spent (mined ops) as a decimal string */
  gasCostWei: string | null
  id: string
  raw: Record<string, unknown>
}

type Raw = Record<string, unknown>

function list(value: unknown): Raw[] {
  if (Array.isArray(value)) return value as Raw[]
  const v = value as { items?: unknown; userOperations?: unknown; decisions?: unknown; data?: unknown } | null
  for (const candidate of [v?.items, v?.userOperations, v?.decisions, v?.data])
    if (Array.isArray(candidate)) return candidate as Raw[]
  return []
}

function str(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  return null
}

function time(value: unknown): number {
  if (typeof value === 'number') return value < 1e12 ? value * 1000 : value
  if (typeof value === 'string') {
    const ms = /^\d+$/.test(value)
      ? Number(value) * (value.length <= 10 ? 1000 : 1)
      : new Date(value).getTime()
    return Number.isNaN(ms) ? 0 : ms
  }
  return 0
}

function pick(raw: Raw, ...paths: string[]): unknown {
  for (const path of paths) {
    let cur: unknown = raw
    for (const part of path.split('.')) cur = (cur as Raw | null | undefined)?.[part]
    if (cur !== undefined && cur !== null) return cur
  }
  return undefined
}

export function normaliseUserOperation(raw: Raw): FeedEntry {
  const hash = str(pick(raw, 'userOpHash', 'hash')) ?? ''
  const sponsored = pick(raw, 'sponsored', 'sponsorship.sponsored')
  return {
    key: `op:${hash}`,
    id: hash,
    kind: 'userOperation',
    at: time(pick(raw, 'updatedAt', 'receivedAt', 'createdAt', 'at', 'timestamp')),
    status: (str(pick(raw, 'status', 'state')) ?? 'unknown').toLowerCase(),
    sender: str(pick(raw, 'sender', 'userOperation.sender', 'userOp.sender')),
    userOpHash: hash || null,
    apiKey: str(pick(raw, 'apiKey', 'dapp.apiKey')),
    dappName: str(pick(raw, 'dappName', 'dapp.name')),
    sponsored: typeof sponsored === 'boolean' ? sponsored : null,
    reason: str(pick(raw, 'reason', 'error.message', 'revertReason', 'message')),
    mode: str(pick(raw, 'mode', 'paymasterMode')),
    gasCostWei: str(pick(raw, 'actualGasCost', 'receipt.actualGasCost', 'gas.actualGasCost')),
    raw,
  }
}

export function normaliseDecision(raw: Raw): FeedEntry {
  const id = str(pick(raw, 'id', 'decisionId')) ?? ''
  const sponsored = pick(raw, 'sponsored', 'decision.sponsored')
  const verdict = typeof sponsored === 'boolean' ? sponsored : null
  return {
    key: `dec:${id}`,
    id,
    kind: 'sponsorship',
    at: time(pick(raw, 'at', 'createdAt', 'decidedAt', 'timestamp')),
    status:
      verdict === null
        ? (str(pick(raw, 'status', 'outcome')) ?? 'decided').toLowerCase()
        : verdict
          ? 'sponsored'
          : 'not sponsored',
    sender: str(pick(raw, 'sender', 'userOperation.sender', 'userOp.sender')),
    userOpHash: str(pick(raw, 'userOpHash')),
    apiKey: str(pick(raw, 'apiKey', 'dapp.apiKey')),
    dappName: str(pick(raw, 'dappName', 'dapp.name')),
    sponsored: verdict,
    reason: str(pick(raw, 'reason', 'message', 'summary')),
    mode: str(pick(raw, 'mode')),
    gasCostWei: null,
    raw,
  }
}

type ActivityState = {
  userOperations: Loadable<FeedEntry[]>
  decisions: Loadable<FeedEntry[]>
  details: Record<string, Loadable<Raw>>
  refresh: () => Promise<void>
  loadDetail: (entry: Pick<FeedEntry, 'key' | 'kind' | 'id'>) => Promise<void>
}

const LIMIT = 5000

export const useActivityStore = create<ActivityState>()((set, get) => ({
  userOperations: { data: undefined, loading: false, error: null, notAvailable: false, loadedAt: null },
  decisions: { data: undefined, loading: false, error: null, notAvailable: false, loadedAt: null },
  details: {},

  async refresh() {
    const ops = get().userOperations
    const decs = get().decisions
    set({ userOperations: loading(ops), decisions: loading(decs) })
    const [opsResult, decsResult] = await Promise.allSettled([
      ops.notAvailable
        ? Promise.reject(Object.assign(new Error(ops.error ?? ''), { notAvailable: true }))
        : consoleApi.listUserOperations({ limit: LIMIT }),
      decs.notAvailable
        ? Promise.reject(Object.assign(new Error(decs.error ?? ''), { notAvailable: true }))
        : consoleApi.listSponsorshipDecisions({ limit: LIMIT }),
    ])
    set({
      userOperations:
        opsResult.status === 'fulfilled'
          ? loaded(list(opsResult.value).map(normaliseUserOperation))
          : keepNotAvailable(get().userOperations, opsResult.reason),
      decisions:
        decsResult.status === 'fulfilled'
          ? loaded(list(decsResult.value).map(normaliseDecision))
          : keepNotAvailable(get().decisions, decsResult.reason),
    })
  },

  async loadDetail(entry) {
    const put = (value: Loadable<Raw>) => set((s) => ({ details: { ...s.details, [entry.key]: value } }))
    put(loading(get().details[entry.key]))
    try {
      const value =
        entry.kind === 'userOperation'
          ? await consoleApi.getUserOperation(entry.id)
          : await consoleApi.getSponsorshipDecision(entry.id)
      put(loaded(value as Raw))
    } catch (err) {
      put(failed(get().details[entry.key], err))
    }
  },
}))

/** A missing route stays "not available" (no re-asking every poll); other errors are shown and retried. */
function keepNotAvailable(previous: Loadable<FeedEntry[]>, reason: unknown): Loadable<FeedEntry[]> {
  if ((reason as { notAvailable?: boolean })?.notAvailable || isNotAvailable(reason)) {
    return { ...previous, loading: false, notAvailable: true, error: errorMessage(reason) }
  }
  return failed(previous, reason)
}

let subscribers = 0
let timer: ReturnType<typeof setInterval> | undefined
/** Polls the feed while at least one screen shows it (every 1.5 s). Returns the unsubscribe function. */
export function subscribeToActivity(): () => void {
  subscribers += 1
  if (subscribers === 1) {
    void useActivityStore.getState().refresh()
    timer = setInterval(() => void useActivityStore.getState().refresh(), 1500)
  }
  return () => {
    subscribers -= 1
    if (subscribers === 0 && timer) clearInterval(timer)
  }
}
