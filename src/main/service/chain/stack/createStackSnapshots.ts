import type { Logger } from '../../log/logger'
import type { NodeRequest } from '../node/nodeRpcError'

/**
 * A part of the service's state that a snapshot of the whole stack keeps (the store document, the history of mined
 * operations, the mempool, the nonces the service counts, its caches). Each part registers one of these with the
 * chain's stack (createStackSnapshots); a snapshot is the node's snapshot id plus every part's capture.
 */
export type StackPart<S = unknown> = {
  name: string
  /**
   * Holds back the part's own work (a bundle being built or sent, a write under way) until `release` is called:
   * nothing the part does straddles a snapshot, a revert or a reset. Resolves once the work in flight is done.
   */
  hold?: () => Promise<() => void>
  /** Writes what the part keeps pending (snapshots only), so that its capture and the files agree. */
  settle?: () => Promise<void>
  /** The part's state now (taken while every part is held). */
  capture: () => S | Promise<S>
  /** Back to a captured state (after the node reverted). Parts are restored in the order they registered. */
  restore: (state: S) => void | Promise<void>
  /** Back to the first start (after the node was reset and the contracts deployed again). */
  reset: () => void | Promise<void>
}

/** Snapshots whose parts' states are kept (each holds a copy of the store document). */
const MAX_KEPT_SNAPSHOTS = 100

export type StackSnapshots = {
  /** Adds a part; returns its removal. */
  register: <S>(part: StackPart<S>) => () => void
  /** `evm_snapshot`: the node's id, with every part's state kept under it. */
  snapshot: (method?: string) => Promise<string>
  /**
   * `evm_revert`: the node back to the snapshot, then every part. As on anvil, the id and every later one are used
   * up; an unknown id answers false and changes nothing.
   */
  revert: (id: unknown, method?: string) => Promise<boolean>
  /** `anvil_reset` without a fork: the node reset, `redeploy` run, then every part back to its first start. */
  reset: (params: unknown, method: string, redeploy: () => Promise<void>) => Promise<unknown>
  /** The ids kept (oldest first). */
  ids: () => string[]
}

/**
 * The stack's snapshots: one mechanism for the chain and everything the service keeps about it. Snapshots, reverts
 * and resets run one at a time, with every part held (no bundle is built or sent meanwhile). The node's own calls go
 * through `request`, the embedded node's journaled request: a revert or a reset is a barrier there (the chain's
 * state is saved before it is answered), and each part writes its restored state before the revert is answered, so
 * a kill -9 right after finds the chain and the service as the revert left them.
 */
export function createStackSnapshots(p: { request: NodeRequest; log: Logger }): StackSnapshots {
  const parts: StackPart[] = []
  const kept = new Map<string, Map<StackPart, unknown>>()
  let queue: Promise<unknown> = Promise.resolve()

  /** Runs `run` after the stack operations before it, with every part held. */
  const exclusively = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(async () => {
      const releases: (() => void)[] = []
      try {
        for (const part of parts) if (part.hold) releases.push(await part.hold())
        return await run()
      } finally {
        for (const release of releases.reverse()) release()
      }
    })
    queue = next.catch(() => undefined)
    return next
  }

  const idOf = (id: unknown): bigint | undefined => {
    try {
      return typeof id === 'string' || typeof id === 'number' ? BigInt(id) : undefined
    } catch {
      return undefined
    }
  }

  return {
    register(part) {
      parts.push(part as StackPart)
      return () => {
        const i = parts.indexOf(part as StackPart)
        if (i !== -1) parts.splice(i, 1)
      }
    },
    snapshot: (method = 'evm_snapshot') =>
      exclusively(async () => {
        for (const part of parts) await part.settle?.()
        const states = new Map<StackPart, unknown>()
        for (const part of parts) states.set(part, await part.capture())
        const id = (await p.request(method, [])) as string
        kept.set(id, states)
        // Snapshots never reverted to (a loop of evm_snapshot) do not grow the memory without end: past the limit the
        // oldest keeps only the node's part (a revert to it takes the chain back alone, and says so in the log).
        if (kept.size > MAX_KEPT_SNAPSHOTS) kept.delete(kept.keys().next().value as string)
        return id
      }),
    revert: (id, method = 'evm_revert') =>
      exclusively(async () => {
        const reverted = (await p.request(method, [id])) === true
        const target = idOf(id)
        const states = typeof id === 'string' ? kept.get(id) : undefined
        // anvil's rule: the snapshot reverted to and every later one are gone.
        if (reverted && target !== undefined)
          for (const key of [...kept.keys()]) if ((idOf(key) ?? -1n) >= target) kept.delete(key)
        if (!reverted) return false
        if (!states) {
          p.log.warn(
            { id },
            'the node reverted to a snapshot whose service state is not kept (not taken through the service, or the oldest of more than 100): only the chain went back',
          )
          return true
        }
        const started = performance.now()
        for (const part of parts) if (states.has(part)) await part.restore(states.get(part))
        p.log.info({ id, ms: Math.round(performance.now() - started) }, 'the stack reverted to a snapshot')
        return true
      }),
    reset: (params, method, redeploy) =>
      exclusively(async () => {
        const result = await p.request(method, params)
        kept.clear()
        await redeploy()
        for (const part of parts) await part.reset()
        p.log.info('the stack was reset to its first start')
        return result
      }),
    ids: () => [...kept.keys()],
  }
}
