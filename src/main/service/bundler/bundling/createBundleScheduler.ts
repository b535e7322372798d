import type { Logger } from '../../log'
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
  log: Logger
}

/** When bundles go out: `auto` (as soon as operations arrive), `interval` (on a timer) or `manual`. */
export function createBundleScheduler({
  runner,
  hasPending,
  mode: initialMode,
  bundleIntervalMs,
  autoBundleDelayMs,
  log,
}: CreateBundleSchedulerParameters): BundleScheduler {
  let mode = initialMode
  let autoTimer: NodeJS.Timeout | undefined
  let intervalTimer: NodeJS.Timeout | undefined
  let closed = false

  const scheduleAutoBundle = (delayMs = autoBundleDelayMs) => {
    if (mode !== 'auto' || closed || autoTimer) return
    autoTimer = setTimeout(() => {
      autoTimer = undefined
      void runner
        .drain()
        .catch((err) => log.error({ err }, 'bundling failed'))
        .finally(() => {
          if (hasPending()) scheduleAutoBundle(50)
        })
    }, delayMs)
  }

  const setMode = (next: BundlingMode) => {
    mode = next
    if (intervalTimer) clearInterval(intervalTimer)
    intervalTimer = undefined
    if (next === 'interval') {
      intervalTimer = setInterval(() => {
        void runner.bundleOnce().catch((err) => log.error({ err }, 'bundling failed'))
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
