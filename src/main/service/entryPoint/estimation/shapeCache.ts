import type { Chain } from '../../chain/types'

/** Values remembered per operation shape (what `shapeOf` keeps of a subject), most recent last, bounded. */
export type ShapeCache<Subject, Value> = {
  get: (subject: Subject) => Value | undefined
  remember: (subject: Subject, value: Value) => void
  forget: (subject: Subject) => void
}

/**
 * Operations of one shape usually get the same gas limits again, so the estimators simulate the last ones first
 * (a guess: what they return is always what a simulation with exactly those limits passed). Oldest shapes go first
 * past `maxEntries`.
 */
export function createShapeCache<Subject, Value>(
  shapeOf: (subject: Subject) => string,
  maxEntries = 1024,
): ShapeCache<Subject, Value> {
  const entries = new Map<string, Value>()
  return {
    get: (subject) => entries.get(shapeOf(subject)),
    remember(subject, value) {
      const key = shapeOf(subject)
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string)
    },
    forget: (subject) => {
      entries.delete(shapeOf(subject))
    },
  }
}

/** One value per chain, created on first use (the caches the bundler's and the paymaster's estimates share). */
export function perChain<T>(create: () => T): (chain: Chain) => T {
  const values = new WeakMap<Chain, T>()
  return (chain) => {
    let value = values.get(chain)
    if (value === undefined) {
      value = create()
      values.set(chain, value)
    }
    return value
  }
}
