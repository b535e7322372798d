export type FinishWaiters = {
  /** Resolves when the operation is finished ({@link FinishWaiters.finished}), after `ms`, or on close. */
  waitForFinish: (userOpHash: string, ms: number) => Promise<void>
  /** The operation reached a final status (mined, failed, dropped, replaced): wakes its waiters. */
  finished: (userOpHash: string) => void
  /** Wakes every waiter (the bundler is stopping). */
  close: () => void
}

/** Callers waiting, each up to a deadline, for operations to finish: receipt queries answered as soon as mined. */
export function createFinishWaiters(): FinishWaiters {
  const waiting = new Map<string, Set<() => void>>()

  const finished = (userOpHash: string) => {
    const wakes = waiting.get(userOpHash)
    if (!wakes) return
    waiting.delete(userOpHash)
    for (const wake of wakes) wake()
  }

  return {
    waitForFinish(userOpHash, ms) {
      return new Promise<void>((resolve) => {
        const wakes = waiting.get(userOpHash) ?? new Set<() => void>()
        waiting.set(userOpHash, wakes)
        const wake = () => {
          clearTimeout(timer)
          resolve()
        }
        const timer = setTimeout(() => {
          wakes.delete(wake)
          if (wakes.size === 0 && waiting.get(userOpHash) === wakes) waiting.delete(userOpHash)
          resolve()
        }, ms)
        timer.unref?.()
        wakes.add(wake)
      })
    },
    finished,
    close() {
      for (const userOpHash of [...waiting.keys()]) finished(userOpHash)
    },
  }
}
