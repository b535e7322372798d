import { create } from 'zustand'
import { consoleApi } from '../../api/console'
import { errorMessage, isNotAvailable } from '../../api/http'
import { failed, type Loadable, loaded, loading } from '../../stores/loadable'
import {
  isEventStreamOpen,
  subscribeToServiceEvents,
  useEventStreamStore,
} from '../../stores/useEventStreamStore'

/**
 * The live feed: UserOperations (bundler, `/console/api/user-operations`) and sponsorship decisions
 * (paymaster, `/console/api/sponsorship-decisions`), normalised into one row shape; `raw` keeps the record.
 */
export type FeedEntry = {
  key: string
  kind: 'userOperation' | 'sponsorship'
  id: string
  /** ms since epoch */
  at: number
  /** received | bundled | mined | failed | rejected | dropped | replaced | sponsored | not sponsored */
  status: string
  sender: string | null
  userOpHash: string | null
  apiKey: string | null
  dappName: string | null
  sponsored: boolean | null
  reason: string | null
  mode: string | null
  /** wei spent (mined ops), decimal string */
  gasCostWei: string | null
  seq: number | null
  raw: Raw
}

export type Raw = Record<string, unknown>

/** The bundler's record states in the words of the console. */
export const OP_STATUS_LABELS: Record<string, string> = {
  pending: 'received',
  submitted: 'bundled',
  included: 'mined',
  failed: 'failed',
  rejected: 'rejected',
  dropped: 'dropped',
  replaced: 'replaced',
}

function items(value: unknown): Raw[] {
  if (Array.isArray(value)) return value as Raw[]
  const list = (value as { items?: unknown } | null)?.items
  return Array.isArray(list) ? (list as Raw[]) : []
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null
const time = (v: unknown): number => {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? new Date(v).getTime() : 0
  return Number.isNaN(ms) ? 0 : ms
}

export function normaliseUserOperation(raw: Raw): FeedEntry {
  const hash = str(raw.userOpHash) ?? ''
  const status = str(raw.status) ?? 'unknown'
  const failure = raw.failure as { reason?: string } | null | undefined
  return {
    key: `op:${hash}`,
    id: hash,
    kind: 'userOperation',
    at: time(raw.updatedAt ?? raw.createdAt),
    status: OP_STATUS_LABELS[status] ?? status,
    sender: str(raw.sender),
    userOpHash: hash || null,
    apiKey: str(raw.apiKey),
    dappName: str(raw.dappName),
    sponsored: null,
    reason: failure?.reason ?? str(raw.revertReason),
    mode: null,
    gasCostWei: str(raw.actualGasCost),
    seq: typeof raw.seq === 'number' ? raw.seq : null,
    raw,
  }
}

export function normaliseDecision(raw: Raw): FeedEntry {
  const id = str(raw.id) ?? ''
  const sponsored = typeof raw.sponsored === 'boolean' ? raw.sponsored : null
  return {
    key: `dec:${id}`,
    id,
    kind: 'sponsorship',
    at: time(raw.at ?? raw.time),
    status: sponsored === null ? 'decided' : sponsored ? 'sponsored' : 'not sponsored',
    sender: str(raw.sender),
    userOpHash: str(raw.userOpHash),
    apiKey: str(raw.apiKey),
    dappName: str(raw.dappName),
    sponsored,
    reason: str(raw.reason),
    mode: str(raw.mode),
    gasCostWei: null,
    seq: null,
    raw,
  }
}

type ActivityState = {
  /** By key, merged across polls and pages. */
  userOperations: Loadable<Map<string, FeedEntry>>
  decisions: Loadable<Map<string, FeedEntry>>
  /** More (older) operations exist on the service. */
  olderCursor: number | null
  loadingOlder: boolean
  details: Record<string, Loadable<Raw>>
  refresh: () => Promise<void>
  loadOlder: () => Promise<void>
  loadDetail: (key: string) => Promise<void>
}

const POLL_LIMIT = 200
const DECISION_LIMIT = 2000

function merge(previous: Map<string, FeedEntry> | undefined, entries: FeedEntry[]): Map<string, FeedEntry> {
  const next = new Map(previous)
  for (const e of entries) next.set(e.key, e)
  return next
}

function keepNotAvailable<T>(previous: Loadable<T>, reason: unknown): Loadable<T> {
  if (isNotAvailable(reason))
    return { ...previous, loading: false, notAvailable: true, error: errorMessage(reason) }
  return failed(previous, reason)
}

export const useActivityStore = create<ActivityState>()((set, get) => ({
  userOperations: { data: undefined, loading: false, error: null, notAvailable: false, loadedAt: null },
  decisions: { data: undefined, loading: false, error: null, notAvailable: false, loadedAt: null },
  olderCursor: null,
  loadingOlder: false,
  details: {},

  async refresh() {
    const { userOperations: ops, decisions: decs } = get()
    const [opsResult, decsResult] = await Promise.allSettled([
      ops.notAvailable ? Promise.reject(ops) : consoleApi.listUserOperations({ limit: POLL_LIMIT }),
      decs.notAvailable
        ? Promise.reject(decs)
        : consoleApi.listSponsorshipDecisions({ limit: DECISION_LIMIT }),
    ])
    const current = get()
    const opsState =
      opsResult.status === 'fulfilled'
        ? loaded(merge(current.userOperations.data, items(opsResult.value).map(normaliseUserOperation)))
        : ops.notAvailable
          ? { ...ops, loading: false }
          : keepNotAvailable(current.userOperations, opsResult.reason)
    const decsState =
      decsResult.status === 'fulfilled'
        ? loaded(merge(undefined, items(decsResult.value).map(normaliseDecision)))
        : decs.notAvailable
          ? { ...decs, loading: false }
          : keepNotAvailable(current.decisions, decsResult.reason)
    const firstPage =
      opsResult.status === 'fulfilled' ? (opsResult.value as { nextBefore?: number | null }) : null
    set({
      userOperations: opsState,
      decisions: decsState,
      olderCursor: current.olderCursor ?? firstPage?.nextBefore ?? null,
    })
  },

  async loadOlder() {
    const cursor = get().olderCursor
    if (cursor === null || get().loadingOlder) return
    set({ loadingOlder: true })
    try {
      const page = (await consoleApi.listUserOperations({ limit: 500, before: cursor })) as {
        nextBefore?: number | null
      }
      set((s) => ({
        userOperations: {
          ...s.userOperations,
          data: merge(s.userOperations.data, items(page).map(normaliseUserOperation)),
        },
        olderCursor: page.nextBefore ?? null,
      }))
    } catch (err) {
      set((s) => ({ userOperations: { ...s.userOperations, error: errorMessage(err) } }))
    } finally {
      set({ loadingOlder: false })
    }
  },

  async loadDetail(key) {
    const put = (value: Loadable<Raw>) => set((s) => ({ details: { ...s.details, [key]: value } }))
    put(loading(get().details[key]))
    const [kind, ...rest] = key.split(':')
    const id = rest.join(':')
    try {
      const value =
        kind === 'op' ? await consoleApi.getUserOperation(id) : await consoleApi.getSponsorshipDecision(id)
      put(loaded(value as Raw))
    } catch (err) {
      put(failed(get().details[key], err))
    }
  },
}))

/** Pushed events that change the feed. */
const FEED_EVENTS = new Set(['userOperation.changed', 'sponsorship.decided'])
/** Pushed refreshes run at most this often (a burst of batches becomes one refresh after another). */
const MIN_REFRESH_GAP_MS = 500

let refreshing = false
let refreshAgain = false
let lastRefresh = 0
let refreshTimer: ReturnType<typeof setTimeout> | undefined

/** Refreshes soon: at once after a quiet spell, else after the running refresh and the minimum gap. */
function requestRefresh(): void {
  if (refreshing) {
    refreshAgain = true
    return
  }
  if (refreshTimer) return
  refreshTimer = setTimeout(
    () => {
      refreshTimer = undefined
      refreshing = true
      lastRefresh = Date.now()
      void useActivityStore
        .getState()
        .refresh()
        .finally(() => {
          refreshing = false
          if (refreshAgain) {
            refreshAgain = false
            requestRefresh()
          }
        })
    },
    Math.max(0, lastRefresh + MIN_REFRESH_GAP_MS - Date.now()),
  )
}

let subscribers = 0
let stop: (() => void) | undefined
/**
 * Keeps the feed fresh while at least one screen shows it: refreshed on pushed UserOperation and sponsorship
 * events while the event stream is open, polled every 1.5 s while it is not. Returns the unsubscribe function.
 */
export function subscribeToActivity(): () => void {
  subscribers += 1
  if (subscribers === 1) {
    requestRefresh()
    const timer = setInterval(() => {
      if (!isEventStreamOpen()) requestRefresh()
    }, 1500)
    const unsubscribe = subscribeToServiceEvents((events) => {
      if (events.some((e) => FEED_EVENTS.has(e.name))) requestRefresh()
    })
    // What happened while the stream was down.
    const unwatch = useEventStreamStore.subscribe((state, previous) => {
      if (state.status === 'open' && previous.status !== 'open') requestRefresh()
    })
    stop = () => {
      clearInterval(timer)
      unsubscribe()
      unwatch()
    }
  }
  return () => {
    subscribers -= 1
    if (subscribers === 0) {
      stop?.()
      stop = undefined
    }
  }
}
