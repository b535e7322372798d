import { create } from 'zustand'
import type { ServiceInfo } from '../../../shared/serviceInfo'
import { consoleApi } from '../api/console'
import { ApiError, configureConnection, errorMessage, isNotAvailable } from '../api/http'
import { isChainSettling } from '../features/chains/chainList'
import {
  isEventStreamOpen,
  reconnectEventStream,
  type ServiceEvent,
  subscribeToServiceEvents,
  useEventStreamStore,
} from './useEventStreamStore'

type ServiceState = {
  status: ServiceInfo | null
  authToken: string | null
  /** Set when the service cannot be reached or the session failed. */
  error: string | null
  /** First connection still in progress. */
  connecting: boolean
  /** The browser has no console session (it was not opened with the login URL): the sign-in page shows. */
  signInRequired: boolean
  signInError: string | null
  regenerating: boolean
  regenerateError: string | null
  connect: () => Promise<void>
  signIn: (token: string) => Promise<void>
  refreshStatus: () => Promise<void>
  regenerateAuthToken: () => Promise<void>
}

/** Connects to the service (same origin in a browser, or the desktop bridge) and keeps its status fresh. */
export const useServiceStore = create<ServiceState>()((set, get) => ({
  status: null,
  authToken: null,
  error: null,
  connecting: true,
  signInRequired: false,
  signInError: null,
  regenerating: false,
  regenerateError: null,

  async connect() {
    set({ connecting: true, error: null })
    try {
      const bridge = window.opstation
      if (bridge && location.protocol === 'file:') {
        const info = await bridge.getServerInfo()
        configureConnection({ baseUrl: info.dashboardUrl, authToken: info.authToken })
        set({ status: info, authToken: info.authToken })
      }
      const session = await consoleApi.session()
      configureConnection({ authToken: session.authToken })
      set({ authToken: session.authToken })
      reconnectEventStream()
      await get().refreshStatus()
      set({ connecting: false })
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) set({ connecting: false, signInRequired: true })
      else set({ connecting: false, error: errorMessage(err) })
    }
  },

  async signIn(token) {
    try {
      await consoleApi.login(token)
      set({ signInRequired: false, signInError: null })
      await get().connect()
    } catch (err) {
      set({ signInError: errorMessage(err) })
    }
  },

  async refreshStatus() {
    try {
      const status = await consoleApi.status()
      set({ status, error: null })
    } catch (err) {
      set({ error: errorMessage(err) })
    }
  },

  async regenerateAuthToken() {
    set({ regenerating: true, regenerateError: null })
    try {
      const { authToken } = await consoleApi.regenerateAuthToken()
      configureConnection({ authToken })
      set({ authToken, regenerating: false })
      reconnectEventStream()
    } catch (err) {
      set({
        regenerating: false,
        regenerateError: isNotAvailable(err)
          ? 'Regenerating the token is not available in this version of the service yet.'
          : errorMessage(err),
      })
    }
  },
}))

/** Pushed events after which the status (chain states, each chain's time, settings) is read again. */
const STATUS_EVENTS = new Set<ServiceEvent['name']>(['chain.status', 'chain.time', 'settings.changed'])

/**
 * Keeps the status fresh: refreshed on pushed `chain.status` / `settings.changed` events while the event stream is
 * open; otherwise polled, every 1 s while a chain starts or restarts, else every 5 s.
 */
export function startStatusPolling(): () => void {
  const refresh = () => void useServiceStore.getState().refreshStatus()
  let last = 0
  const timer = setInterval(() => {
    if (isEventStreamOpen()) return
    const { status } = useServiceStore.getState()
    const busy =
      status !== undefined &&
      status !== null &&
      (isChainSettling(status.chain.state) || status.chains.some((c) => isChainSettling(c.state)))
    const now = Date.now()
    if (busy || now - last >= 5000) {
      last = now
      refresh()
    }
  }, 1000)
  const unsubscribe = subscribeToServiceEvents((events) => {
    if (events.some((e) => STATUS_EVENTS.has(e.name))) refresh()
  })
  // What changed while the stream was down.
  const unwatch = useEventStreamStore.subscribe((state, previous) => {
    if (state.status === 'open' && previous.status !== 'open') refresh()
  })
  return () => {
    clearInterval(timer)
    unsubscribe()
    unwatch()
  }
}
