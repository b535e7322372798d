import type { Logger } from '../../log/logger'
import type { NodeRequest } from '../node/nodeRpcError'
import {
  chainHoldsMark,
  createIntentToken,
  killForTestAt,
  markChain,
  readStackIntent,
  removeStackIntent,
  type StackIntent,
  type StackIntentToWrite,
  writeStackIntent,
} from './stackIntent'

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
  /**
   * A part that keeps state on disk (the store document, the history's files): how a restart finishes a revert or a
   * reset the service was killed in after the chain went back. `save` turns a capture into JSON text for the intent
   * record, `load` turns it back (parsed) for `restore`; `reset` writes the first start's state (by default `reset`).
   */
  durable?: {
    save: (state: S) => string
    load: (saved: unknown) => S
    reset?: () => Promise<void>
  }
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
  /**
   * At start, once the parts are registered: a revert or a reset the last run was killed in is finished (the chain went
   * back: each durable part goes back too) or rolled back (the chain did not: nothing else did either).
   */
  finishInterrupted: () => Promise<void>
  /** Resolves once no interrupted revert or reset is left (at once when the last run left none). */
  recovered: () => Promise<void>
}

/**
 * The stack's snapshots: one mechanism for the chain and everything the service keeps about it. Snapshots, reverts
 * and resets run one at a time, with every part held (no bundle is built or sent meanwhile). The node's own calls go
 * through `request`, the embedded node's journaled request: a revert or a reset is a barrier there (the chain's
 * state is saved before it is answered), and each part writes its restored state before the revert is answered, so
 * a kill -9 right after finds the chain and the service as the revert left them. With an intent path, a kill between
 * the chain going back and the parts writing their state is finished at the next start (finishInterrupted): the chain
 * is marked and the parts' states recorded before it goes back (stackIntent.ts).
 */
export function createStackSnapshots(p: {
  request: NodeRequest
  log: Logger
  /**
   * Where a revert or a reset keeps its intent record (the embedded node's data folder): with it, each is one durable
   * step across the chain and the parts (stackIntent.ts).
   */
  intentPath?: string
}): StackSnapshots {
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

  // What the last run left unfinished; the bundler and the service wait for it to be settled before they go on.
  const interrupted = readInterrupted(p.intentPath, p.log)
  let settle = () => {}
  const recovered: Promise<void> = interrupted
    ? new Promise((resolve) => {
        settle = resolve
      })
    : Promise.resolve()

  /**
   * Before the chain goes back: the chain marked with a new token (on disk before it is answered), then the intent
   * record written. Without an intent path (an external node) a revert stays two steps.
   */
  const begin = async (intent: Omit<StackIntentToWrite, 'token'>) => {
    const path = p.intentPath
    if (!path) return { abandon: async () => {}, done: () => {} }
    const token = createIntentToken()
    await markChain(p.request, token)
    writeStackIntent(path, { ...intent, token })
    return {
      /** The chain did not go back: the mark cleared, the record removed. */
      abandon: async () => {
        await markChain(p.request).catch(() => undefined)
        removeStackIntent(path)
      },
      /** Every part wrote its state. */
      done: () => removeStackIntent(path),
    }
  }

  const durableStates = (states: Map<StackPart, unknown>) => {
    const saved: Record<string, string> = {}
    for (const [part, state] of states) if (part.durable) saved[part.name] = part.durable.save(state)
    return saved
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
        const states = typeof id === 'string' ? kept.get(id) : undefined
        // Only a revert that takes parts back needs the record: without kept states only the chain goes back.
        const intent = states
          ? await begin({ kind: 'revert', method, id: id as string, parts: durableStates(states) })
          : undefined
        killForTestAt('stack.beforeChain')
        let reverted: boolean
        try {
          reverted = (await p.request(method, [id])) === true
        } catch (err) {
          await intent?.abandon()
          throw err
        }
        const target = idOf(id)
        // anvil's rule: the snapshot reverted to and every later one are gone.
        if (reverted && target !== undefined)
          for (const key of [...kept.keys()]) if ((idOf(key) ?? -1n) >= target) kept.delete(key)
        if (!reverted) {
          await intent?.abandon()
          return false
        }
        if (!states) {
          p.log.warn(
            { id },
            'the node reverted to a snapshot whose service state is not kept (not taken through the service, or the oldest of more than 100): only the chain went back',
          )
          return true
        }
        killForTestAt('stack.afterChain')
        const started = performance.now()
        for (const part of parts) if (states.has(part)) await part.restore(states.get(part))
        intent?.done()
        p.log.info({ id, ms: Math.round(performance.now() - started) }, 'the stack reverted to a snapshot')
        return true
      }),
    reset: (params, method, redeploy) =>
      exclusively(async () => {
        const intent = await begin({ kind: 'reset', method, parts: {} })
        killForTestAt('stack.beforeChain')
        let result: unknown
        try {
          result = await p.request(method, params)
        } catch (err) {
          await intent.abandon()
          throw err
        }
        kept.clear()
        killForTestAt('stack.afterChain')
        await redeploy()
        for (const part of parts) await part.reset()
        intent.done()
        p.log.info('the stack was reset to its first start')
        return result
      }),
    ids: () => [...kept.keys()],
    recovered: () => recovered,
    finishInterrupted: async () => {
      const path = p.intentPath
      if (!interrupted || !path) return
      try {
        if (await chainHoldsMark(p.request, interrupted.token)) {
          // Killed before the chain went back: nothing did, the stack stays as it was before the call.
          await markChain(p.request)
          p.log.warn(
            { method: interrupted.method, id: interrupted.id },
            `the last run was stopped during ${interrupted.method} before the chain went back: it is undone, the stack is as before it`,
          )
        } else {
          // The chain went back: every part that keeps state on disk goes back with it.
          for (const part of parts) {
            if (!part.durable) continue
            if (interrupted.kind === 'reset') await (part.durable.reset ?? part.reset)()
            else if (part.name in interrupted.parts)
              await part.restore(part.durable.load(interrupted.parts[part.name]))
          }
          p.log.warn(
            { method: interrupted.method, id: interrupted.id },
            `the last run was stopped during ${interrupted.method} after the chain went back: the service's state went back with it`,
          )
        }
        removeStackIntent(path)
      } finally {
        settle()
      }
    },
  }
}

/** The intent record the last run left, or undefined (one that does not read is logged and set aside). */
function readInterrupted(path: string | undefined, log: Logger): StackIntent | undefined {
  if (!path) return undefined
  try {
    return readStackIntent(path)
  } catch (err) {
    log.error(
      { err, path },
      'the record of an interrupted revert or reset does not read: removed, the stack is left as it is',
    )
    removeStackIntent(path)
    return undefined
  }
}
