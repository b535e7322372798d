/** Formatting helpers: no state, no React. */

export function shortHex(value: string | null | undefined, head = 6, tail = 4): string {
  if (!value) return ''
  if (value.length <= head + tail + 3) return value
  return `${value.slice(0, head)}…${value.slice(-tail)}`
}

/** bigint-like input (decimal string, 0x hex, number) → bigint, or null when it is not an integer. */
export function toBigInt(value: unknown): bigint | null {
  try {
    if (typeof value === 'bigint') return value
    if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : null
    if (typeof value === 'string' && /^(0x[0-9a-fA-F]+|\d+)$/.test(value.trim())) return BigInt(value.trim())
  } catch {}
  return null
}

/** Base units → decimal string with at most `maxFraction` digits ("1.5", "0.000021"). */
export function formatUnits(value: unknown, decimals: number, maxFraction = 6): string {
  const v = toBigInt(value)
  if (v === null) return '—'
  const negative = v < 0n
  const abs = negative ? -v : v
  const base = 10n ** BigInt(decimals)
  const whole = abs / base
  let fraction = (abs % base).toString().padStart(decimals, '0').slice(0, maxFraction).replace(/0+$/, '')
  if (fraction === '' && abs % base !== 0n && whole === 0n) fraction = `${'0'.repeat(maxFraction - 1)}1`
  const wholeText = whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${negative ? '-' : ''}${fraction ? `${wholeText}.${fraction}` : wholeText}`
}

export function formatEth(wei: unknown, maxFraction = 6): string {
  const text = formatUnits(wei, 18, maxFraction)
  return text === '—' ? text : `${text} ETH`
}

/** Decimal whole units ("1.5") → base units; throws a readable error. */
export function parseUnits(text: string, decimals: number): bigint {
  const value = text.trim()
  if (!/^\d+(\.\d+)?$/.test(value)) throw new Error(`"${text}" is not a positive decimal number`)
  const [whole = '0', fraction = ''] = value.split('.')
  if (fraction.length > decimals) throw new Error(`at most ${decimals} decimals`)
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
}

export function formatNumber(value: unknown): string {
  const v = toBigInt(value)
  if (v === null) return typeof value === 'number' ? value.toLocaleString('en-US') : '—'
  return v.toLocaleString('en-US')
}

export function formatTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = typeof value === 'number' ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return (
    date.toLocaleTimeString('en-GB', { hour12: false }) +
    (isToday(date) ? '' : ` ${date.toISOString().slice(0, 10)}`)
  )
}

export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = typeof value === 'number' ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return `${date.toISOString().slice(0, 10)} ${date.toLocaleTimeString('en-GB', { hour12: false })}`
}

function isToday(date: Date): boolean {
  return date.toDateString() === new Date().toDateString()
}

export function pluralize(count: number, word: string, plural = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : plural}`
}

/** JSON.stringify that survives bigint. */
export function toJson(value: unknown, space = 2): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v), space) ?? 'undefined'
}

/** Pairs each item with its position as a string key, for ordered, append-only lists without ids. */
export function keyed<T>(list: readonly T[]): { item: T; key: string }[] {
  return list.map((item, position) => ({ item, key: String(position) }))
}

export function maxBigInt(values: Iterable<bigint>, start = 0n): bigint {
  let max = start
  for (const v of values) if (v > max) max = v
  return max
}
