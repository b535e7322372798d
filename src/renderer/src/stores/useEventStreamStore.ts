import { create } from 'zustand'
import type { StreamedEvent } from '../../../shared/api/events'
import { absoluteUrl, getConnection } from '../api/http'

/**
 * One event of a pushed batch (`GET /console/api/events`): the service's event bus, `noun.pastTense` names, typed
 * by the service's own event list (src/shared/api/events.ts).
 */
export type ServiceEvent = StreamedEvent

/**
 * off: nobody listens. connecting: (re)connecting, screens poll meanwhile. open: events arrive, screens refresh
 * on them instead of polling. failed: refused or unavailable, screens poll and the stream is retried later.
 */
export type EventStreamStatus = 'off' | 'connecting' | 'open' | 'failed'

type EventStreamState = { status: EventStreamStatus }

export const useEventStreamStore = create<EventStreamState>()(() => ({ status: 'off' }))

/** Whether screens can rely on pushed events; when not, they fall back to polling. */
export function isEventStreamOpen(): boolean {
  return useEventStreamStore.getState().status === 'open'
}

const FIRST_RETRY_MS = 5000
const LAST_RETRY_MS = 60_000

const listeners = new Set<(events: ServiceEvent[]) => void>()
let source: EventSource | undefined
let retryTimer: ReturnType<typeof setTimeout> | undefined
let retryMs = FIRST_RETRY_MS

function setStatus(status: EventStreamStatus): void {
  if (useEventStreamStore.getState().status !== status) useEventStreamStore.setState({ status })
}

function disconnect(): void {
  clearTimeout(retryTimer)
  retryTimer = undefined
  source?.close()
  source = undefined
}

function connect(): void {
  disconnect()
  const token = getConnection().authToken
  // No token yet: `reconnectEventStream` runs once the session has one.
  if (!token || typeof EventSource === 'undefined') {
    setStatus('failed')
    return
  }
  // Same origin: the session cookie authenticates the stream and the URL carries no key. The desktop bridge's
  // file: page has no cookie for the service and sends the token in the query.
  const { baseUrl } = getConnection()
  const url = baseUrl
    ? `${absoluteUrl('/console/api/events')}?authToken=${encodeURIComponent(token)}`
    : absoluteUrl('/console/api/events')
  const stream = new EventSource(url)
  source = stream
  setStatus('connecting')
  stream.onopen = () => {
    retryMs = FIRST_RETRY_MS
    setStatus('open')
  }
  stream.onmessage = (message) => {
    let events: unknown
    try {
      events = JSON.parse(message.data)
    } catch {
      return
    }
    if (!Array.isArray(events)) return
    for (const listener of listeners) listener(events as ServiceEvent[])
  }
  stream.onerror = () => {
    if (stream !== source) return
    if (stream.readyState !== EventSource.CLOSED) {
      setStatus('connecting')
      return
    }
    // Refused (a regenerated token, a service without the route) or gone: poll, and try again later.
    setStatus('failed')
    source = undefined
    retryTimer = setTimeout(connect, retryMs)
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS)
  }
}

/**
 * Listens to the service's pushed events; the first listener opens the one shared EventSource and the last one
 * closes it. Returns the unsubscribe function.
 */
export function subscribeToServiceEvents(listener: (events: ServiceEvent[]) => void): () => void {
  listeners.add(listener)
  if (listeners.size === 1) connect()
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) {
      disconnect()
      setStatus('off')
    }
  }
}

/** Reconnects with the current auth token (after the session starts or the token is regenerated). */
export function reconnectEventStream(): void {
  if (listeners.size > 0) {
    retryMs = FIRST_RETRY_MS
    connect()
  }
}
