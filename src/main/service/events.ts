import { EventEmitter } from 'node:events'

/**
 * Typed events for the console's live feed (activity, chain status, webhook calls). Names are
 * `noun.pastTense`. Producers emit; the console API streams them to the renderer in batches.
 */
export type ServiceEvents = {
  'settings.changed': { bundlingMode: string; unsafe: boolean; webhookTimeoutMs: number }
  'chain.status': { state: string; message?: string }
  /** A UserOperation was accepted, rejected, submitted, mined, dropped or replaced (see store/userOperationRecord). */
  'userOperation.changed': {
    userOpHash: string
    status: string
    sender: string
    dappId: string | null
    transactionHash: string | null
    /** Rejection or drop reason (with the AAxx code), or the call phase's revert reason. */
    reason?: string
  }
  'sponsorship.decided': { id: string; dappId: string; sponsored: boolean }
  'webhook.called': { id: string; webhookId: string; verified: boolean }
}

export type ServiceEventName = keyof ServiceEvents

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
