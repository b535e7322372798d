import { create } from 'zustand'
import { consoleApi } from '../../api/console'
import { errorMessage, isNotAvailable } from '../../api/http'
import { failed, type Loadable, loaded, loading } from '../../stores/loadable'
import {
  isEventStreamOpen,
  type ServiceEvent,
  subscribeToServiceEvents,
  useEventStreamStore,
} from '../../stores/useEventStreamStore'
import { type FeedEntry, mergeEntries, parseEntryKey, toDecisionEntry, toOperationEntry } from './feedEntries'

/**
 * The live feed: UserOperations (bundler, `/console/api/user-operations`) and sponsorship decisions (paymaster,
 * `/console/api/sponsorship-decisions`) as feed entries (feedEntries.ts), kept fresh while a screen shows them.
 */
type ActivityState = {
  /** By key, merged across polls and pages. */
  userOperations: Loadable<Map<string, FeedEntry>>
  decisions: Loadable<Map<string, FeedEntry>>
  /** More (older) operations exist on the service. */
  olderCursor: number | null
  loadingOlder: boolean
  /** The entries opened in the detail, read again on their own (by key). */
  details: Record<string, Loadable<FeedEntry>>
  refresh: () => Promise<void>
  loadOlder: () => Promise<void>
  loadDetail: (key: string) => Promise<void>
}

const POLL_LIMIT = 200
const DECISION_LIMIT = 2000

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
    // After a revert the records kept from earlier polls may be gone from the service: this read replaces them.
    const replace = replaceOnNextRefresh
    replaceOnNextRefresh = false
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
        ? loaded(
            mergeEntries(
              replace ? undefined : current.userOperations.data,
              opsResult.value.items.map(toOperationEntry),
            ),
          )
        : ops.notAvailable
          ? { ...ops, loading: false }
          : keepNotAvailable(current.userOperations, opsResult.reason)
    const decsState =
      decsResult.status === 'fulfilled'
        ? loaded(mergeEntries(undefined, decsResult.value.items.map(toDecisionEntry)))
        : decs.notAvailable
          ? { ...decs, loading: false }
          : keepNotAvailable(current.decisions, decsResult.reason)
    const firstPage = opsResult.status === 'fulfilled' ? opsResult.value : null
    set({
      userOperations: opsState,
      decisions: decsState,
      olderCursor: (replace ? null : current.olderCursor) ?? firstPage?.nextBefore ?? null,
      ...(replace ? { details: {} } : {}),
    })
  },

  async loadOlder() {
    const cursor = get().olderCursor
    if (cursor === null || get().loadingOlder) return
    set({ loadingOlder: true })
    try {
      const page = await consoleApi.listUserOperations({ limit: 500, before: cursor })
      set((s) => ({
        userOperations: {
          ...s.userOperations,
          data: mergeEntries(s.userOperations.data, page.items.map(toOperationEntry)),
        },
        olderCursor: page.nextBefore,
      }))
    } catch (err) {
      set((s) => ({ userOperations: { ...s.userOperations, error: errorMessage(err) } }))
    } finally {
      set({ loadingOlder: false })
    }
  },

  async loadDetail(key) {
    const put = (value: Loadable<FeedEntry>) => set((s) => ({ details: { ...s.details, [key]: value } }))
    put(loading(get().details[key]))
    const { kind, id } = parseEntryKey(key)
    try {
      put(
        loaded(
          kind === 'userOperation'
            ? toOperationEntry(await consoleApi.getUserOperation(id))
            : toDecisionEntry(await consoleApi.getSponsorshipDecision(id)),
        ),
      )
    } catch (err) {
      put(failed(get().details[key], err))
    }
  },
}))

/** Pushed events that change the feed. */
const FEED_EVENTS = new Set<ServiceEvent['name']>(['userOperation.changed', 'sponsorship.decided'])

let replaceOnNextRefresh = false

/**
 * The stack went back (a revert or a reset, from the console or at the chain URL): the next read of the feed replaces
 * what earlier reads kept instead of adding to it, so the operations and decisions undone leave the Activity.
 */
export function forgetActivity(): void {
  replaceOnNextRefresh = true
  if (subscribers > 0) requestRefresh()
}
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
    // What the store kept from an earlier visit may have been reverted since: the first read replaces it.
    replaceOnNextRefresh = true
    requestRefresh()
    const timer = setInterval(() => {
      if (!isEventStreamOpen()) requestRefresh()
    }, 1500)
    const unsubscribe = subscribeToServiceEvents((events) => {
      if (events.some((e) => e.name === 'stack.reverted')) forgetActivity()
      else if (events.some((e) => FEED_EVENTS.has(e.name))) requestRefresh()
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
