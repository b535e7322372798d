import { isNodeUnreachable } from '../../chain/node/isNodeUnreachable'
import type { Logger } from '../../log/logger'
import type { BundlingMode } from '../bundlerOptions'
import type { BundleRunner } from './createBundleRunner'

export type BundleScheduler = {
  mode: () => BundlingMode
  /** Switches mode: interval starts its timer, auto bundles what is pending. */
  setMode: (mode: BundlingMode) => void
  /** Auto mode: a bundle goes out after `delayMs` (operations arriving meanwhile join it). */
  scheduleAutoBundle: (delayMs?: number) => void
  /** Stops the timers; no bundle is scheduled afterwards. */
  close: () => void
}

export type CreateBundleSchedulerParameters = {
  runner: BundleRunner
  hasPending: () => boolean
  mode: BundlingMode
  bundleIntervalMs: number
  autoBundleDelayMs: number
  /**
   * Auto mode under load: after a bundle, operations that arrived meanwhile wait this long for company before
   * the next bundle goes out. Every block costs the node a fixed few milliseconds, so two-operation bundles
   * back to back slow every other call; one client alone never waits for it.
   */
  autoBundleGatherMs: number
  log: Logger
}

/** When bundles go out: `auto` (as soon as operations arrive), `interval` (on a timer) or `manual`. */
export function createBundleScheduler({
  runner,
  hasPending,
  mode: initialMode,
  bundleIntervalMs,
  autoBundleDelayMs,
  autoBundleGatherMs,
  log,
}: CreateBundleSchedulerParameters): BundleScheduler {
  let mode = initialMode
  let autoTimer: NodeJS.Timeout | undefined
  let intervalTimer: NodeJS.Timeout | undefined
  let closed = false
  let bundling = false

  // The chain away is told once, by its status, not by every bundling attempt meanwhile.
  const logBundlingFailure = (err: unknown) =>
    isNodeUnreachable(err)
      ? log.debug({ err }, 'bundling waits: the chain is away')
      : log.error({ err }, 'bundling failed')

  const scheduleAutoBundle = (delayMs = autoBundleDelayMs) => {
    // While a bundle is out, arrivals wait for it to finish (then for the gathering window).
    if (mode !== 'auto' || closed || autoTimer || bundling) return
    autoTimer = setTimeout(() => {
      autoTimer = undefined
      bundling = true
      let away = false
      void runner
        .bundleOnce()
        .catch((err) => {
          away = isNodeUnreachable(err)
          logBundlingFailure(err)
        })
        .then((result) => {
          bundling = false
          // A failed or empty run (nothing could go) retries later rather than spinning; with the chain away, the
          // bundler schedules again once it is back (createBundler.ts).
          if (hasPending() && !away) scheduleAutoBundle(result ? autoBundleGatherMs : 50)
        })
    }, delayMs)
  }

  const setMode = (next: BundlingMode) => {
    mode = next
    if (intervalTimer) clearInterval(intervalTimer)
    intervalTimer = undefined
    if (next === 'interval') {
      intervalTimer = setInterval(() => {
        void runner.bundleOnce().catch(logBundlingFailure)
      }, bundleIntervalMs)
      intervalTimer.unref?.()
    }
    if (next === 'auto' && hasPending()) scheduleAutoBundle()
  }
  setMode(mode)

  return {
    mode: () => mode,
    setMode,
    scheduleAutoBundle,
    close() {
      closed = true
      if (autoTimer) clearTimeout(autoTimer)
      if (intervalTimer) clearInterval(intervalTimer)
    },
  }
}
