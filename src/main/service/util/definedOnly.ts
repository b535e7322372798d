/** The object without its `undefined` fields (so that spreading or assigning it keeps what they would override). */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
