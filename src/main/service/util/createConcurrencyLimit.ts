/** Runs at most `limit` tasks at a time; the others wait their turn, first come first served. */
export type ConcurrencyLimit = <T>(task: () => Promise<T>) => Promise<T>

export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
    else running++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else running--
    }
  }
}
