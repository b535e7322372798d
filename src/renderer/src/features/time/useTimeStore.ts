import { create } from 'zustand'
import { describeUndone, type TimeUndoView, type TimeView } from '../../../../shared/api/time'
import { consoleApi } from '../../api/console'
import { failed, idle, type Loadable, loaded, loading } from '../../stores/loadable'
import { subscribeToServiceEvents } from '../../stores/useEventStreamStore'
import { usePaymastersStore } from '../../stores/usePaymastersStore'
import { useServiceStore } from '../../stores/useServiceStore'
import { forgetActivity } from '../activity/useActivityStore'
import { isOfChain } from './chainClocks'

type TimeState = {
  /** The chain the panel acts on, with several chains (undefined: the service's first, the console's clock). */
  chainId: number | undefined
  time: Loadable<TimeView>
  /**
   * The first chain's chain time minus wall time (seconds), as last heard: from a read or a pushed `chain.time`
   * event. The console's clock (the navigation, Activity).
   */
  offsetSeconds: number
  /** Moves the panel to a chain (undefined: the first) and reads its time. */
  pickChain: (chainId: number | undefined) => Promise<void>
  load: () => Promise<void>
  advance: (seconds: number) => Promise<string>
  mine: (blocks: number) => Promise<string>
  snapshot: (name: string) => Promise<string>
  /** Reverts to a named snapshot; resolves with what was undone, in words. */
  revert: (id: string) => Promise<string>
  reset: () => Promise<string>
}

export const useTimeStore = create<TimeState>()((set, get) => {
  // Another chain's time is the panel's only: the console's clock stays the first chain's.
  const show = (view: TimeView) =>
    set(
      get().chainId === undefined
        ? { time: loaded(view), offsetSeconds: view.offsetSeconds }
        : { time: loaded(view) },
    )
  const undo = (view: TimeUndoView, what: string) => {
    show(view)
    readAgainAfterRevert()
    return `${what}: ${describeUndone(view.undone)}`
  }
  return {
    chainId: undefined,
    time: idle(),
    offsetSeconds: 0,
    async pickChain(chainId) {
      if (chainId === get().chainId) return
      set({ chainId, time: idle() })
      await get().load()
    },
    async load() {
      const { chainId } = get()
      set({ time: loading(get().time) })
      try {
        const view = await consoleApi.getTime(chainId)
        // Another chain was picked meanwhile: its read says.
        if (get().chainId === chainId) show(view)
      } catch (err) {
        set({ time: failed(get().time, err) })
      }
    },
    async advance(seconds) {
      show(await consoleApi.advanceTime(seconds, get().chainId))
      return `Chain time advanced by ${describeDuration(seconds)}`
    },
    async mine(blocks) {
      show(await consoleApi.mineBlocks(blocks, get().chainId))
      return `${blocks} block${blocks === 1 ? '' : 's'} mined`
    },
    async snapshot(name) {
      show(await consoleApi.takeSnapshot(name, get().chainId))
      return `Snapshot '${name}' taken`
    },
    async revert(id) {
      const name = get().time.data?.snapshots.find((s) => s.id === id)?.name ?? id
      return undo(await consoleApi.revertToSnapshot(id, get().chainId), `Reverted to '${name}'`)
    },
    async reset() {
      return undo(await consoleApi.resetStack(get().chainId), 'Reset to the first start')
    },
  }
})

/**
 * What the console keeps of the service's records is read again after a revert or a reset (the panel's own, or one at
 * the chain URL): the Activity's feed and the dApps, which the stack may have taken back.
 */
function readAgainAfterRevert(): void {
  forgetActivity()
  void usePaymastersStore.getState().load()
}

/** "1 d 2 h", "5 min", "30 s": a duration in its two largest units. */
export function describeDuration(totalSeconds: number): string {
  const sign = totalSeconds < 0 ? '-' : ''
  let rest = Math.abs(Math.round(totalSeconds))
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ]
  const parts: string[] = []
  for (const [size, unit] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)} ${unit}`)
      rest %= size
    }
  }
  return parts.length ? sign + parts.join(' ') : '0 s'
}

let subscribers = 0
let stop: (() => void) | undefined
/**
 * Keeps the chain's time fresh while a screen shows it: read once, then moved by pushed `chain.time` events (a
 * time jump at the chain URL shows at once) and read again after `stack.reverted` (the snapshots a revert used up
 * leave the list). Returns the unsubscribe function.
 */
export function subscribeToChainTime(): () => void {
  subscribers += 1
  if (subscribers === 1) {
    void useTimeStore.getState().load()
    const unsubscribe = subscribeToServiceEvents((events) => {
      // The console's clock is the first chain's: another chain's time shows in the navigation from the status.
      const firstChainId = useServiceStore.getState().status?.chainId
      for (const event of events)
        if (event.name === 'chain.time' && isOfChain(event.payload.chainId, firstChainId))
          useTimeStore.setState({ offsetSeconds: event.payload.offsetSeconds })
      if (events.some((e) => e.name === 'stack.reverted')) readAgainAfterRevert()
      if (events.some((e) => e.name === 'chain.time' || e.name === 'stack.reverted'))
        void useTimeStore.getState().load()
    })
    stop = unsubscribe
  }
  return () => {
    subscribers -= 1
    if (subscribers === 0) {
      stop?.()
      stop = undefined
    }
  }
}
