/**
 * Freezes a record and everything in it, and returns it: a record the store keeps as written (a decision, a webhook
 * call, a usage entry) can then not change behind the JSON the store keeps of it (documentSerializer.ts); a change
 * throws instead of being lost.
 */
export function freezeDeep<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const inner of Object.values(value)) freezeDeep(inner)
  return Object.freeze(value)
}
