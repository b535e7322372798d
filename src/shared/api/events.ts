/**
 * The service's events, as the console's live feed (`GET /console/api/events`) streams them: names are
 * `noun.pastTense`; producers in the service emit them on its event bus (src/main/service/events.ts).
 */
export type ServiceEvents = {
  'settings.changed': { bundlingMode: string; unsafe: boolean; webhookTimeoutMs: number }
  /** A chain's status changed (`chainId`: which chain, in a service of several; the console shows the first's). */
  'chain.status': { state: string; message?: string; chainId?: number }
  /** A UserOperation was accepted, rejected, submitted, mined, dropped or replaced (see api/userOperations.ts). */
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
  /**
   * A chain's time moved other than by the wall clock (evm_increaseTime, a mined block at a set time, a revert): every
   * chain's, each naming its `chainId`.
   */
  'chain.time': { chainTime: number; offsetSeconds: number; chainId?: number }
  /** The whole stack went back to a snapshot or to its first start: records the console holds may be gone. */
  'stack.reverted': { kind: 'revert' | 'reset'; chainId?: number }
}

export type ServiceEventName = keyof ServiceEvents

/** One element of a streamed batch. `events.dropped` stands for what a full batch left out. */
export type StreamedEvent =
  | { [K in ServiceEventName]: { name: K; payload: ServiceEvents[K]; at: string } }[ServiceEventName]
  | { name: 'events.dropped'; payload: { count: number }; at: string }
