/** A decoded ABI value for JSON: bigints as decimal strings, arrays and structs element by element. */
export function formatValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return value.map(formatValue)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, formatValue(v)]))
  return value
}

/** A decoded ABI value in one line: numbers bare, strings quoted, arrays in brackets. */
export function showValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'string') return /^0x[0-9a-fA-F]*$/.test(value) ? value : JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map(showValue).join(', ')}]`
  return JSON.stringify(formatValue(value))
}
