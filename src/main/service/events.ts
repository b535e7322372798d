import { EventEmitter } from 'node:events'
import type { ServiceEventName, ServiceEvents } from '../../shared/api/events'

/**
 * The event bus behind the console's live feed (activity, chain status, webhook calls). The events and their
 * payloads are the console's wire (src/shared/api/events.ts). Producers emit; the console API streams them to the
 * renderer in batches.
 */
export type EventBus = {
  emit: <K extends ServiceEventName>(name: K, payload: ServiceEvents[K]) => void
  on: <K extends ServiceEventName>(name: K, listener: (payload: ServiceEvents[K]) => void) => () => void
  /** Every event, for the feed stream. */
  onAny: (listener: (name: ServiceEventName, payload: unknown) => void) => () => void
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    emit(name, payload) {
      emitter.emit(name, payload)
      emitter.emit('*', name, payload)
    },
    on(name, listener) {
      emitter.on(name, listener as (payload: unknown) => void)
      return () => emitter.off(name, listener as (payload: unknown) => void)
    },
    onAny(listener) {
      emitter.on('*', listener)
      return () => emitter.off('*', listener)
    },
  }
}
