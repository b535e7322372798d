/**
 * Deterministic fuzz inputs: a seeded generator of hostile JSON values (types, bounds, nesting, encodings such as
 * lone UTF-16 surrogates, sizes), mutations of valid requests, and the JSON text of values too deep for
 * JSON.stringify.
 */

/** mulberry32: a small seeded generator, the same sequence for the same seed on every machine. */
export function createRandom(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (max: number) => Math.floor(next() * max)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T
  const chance = (p: number) => next() < p
  const hex = (bytes: number) => Array.from({ length: bytes * 2 }, () => '0123456789abcdef'[int(16)]).join('')
  return { next, int, pick, chance, hex }
}
export type Random = ReturnType<typeof createRandom>

/** Marks a value that serialize() writes as JSON nested `depth` levels deep (JSON.stringify overflows on it). */
const DEEP = '\u0000deep:'
export const deep = (depth: number) => `${DEEP}${depth}`

/** JSON text of a value, with deep() markers replaced by nested arrays and objects of that depth. */
export function serialize(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0000deep:(\d+)"/g, (_, depth: string) => {
    const n = Number(depth)
    return `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`
  })
}

/** Field names of the service's APIs: random objects use them, so they reach the schemas behind the edges. */
export const FIELD_NAMES = [
  'name',
  'type',
  'chainId',
  'version',
  'apiKey',
  'authToken',
  'address',
  'abi',
  'whitelistedMethods',
  'webhookUrl',
  'requestType',
  'webhookId',
  'active',
  'action',
  'amountWei',
  'entryPointVersion',
  'to',
  'value',
  'data',
  'calls',
  'userOperation',
  'asset',
  'amount',
  'label',
  'tokenAddress',
  'usdPrice',
  'logoUrl',
  'limits',
  'validAfter',
  'validUntil',
  'premiumPercentage',
  'threshold',
  'thresholdType',
  'cycleDuration',
  'unit',
  'bundlingMode',
  'unsafe',
  'webhookTimeoutMs',
  'rpcUrl',
  'webhookData',
  'userOp',
  'token',
  'limit',
  'before',
  'sender',
  'nonce',
  'initCode',
  'callData',
  'callGasLimit',
  'verificationGasLimit',
  'preVerificationGas',
  'maxFeePerGas',
  'maxPriorityFeePerGas',
  'paymasterAndData',
  'signature',
  'factory',
  'factoryData',
  'paymaster',
  'paymasterData',
  'paymasterVerificationGasLimit',
  'paymasterPostOpGasLimit',
  'eip7702Auth',
  'mode',
  'calculateGasLimits',
  'expiryDuration',
  'sponsorshipInfo',
  'smartAccountInfo',
  'tokenInfo',
  'feeTokenAddress',
  'preferredToken',
  'tokenList',
  'entryPoint',
  'balance',
  'code',
  'state',
  'stateDiff',
  'traceCall',
  '__proto__',
  'constructor',
  'toString',
  '',
] as const

const MAX_UINT256 = (1n << 256n) - 1n

/** Strings chosen to break parsers: encodings, bounds, lengths. */
function hostileString(r: Random): string {
  switch (r.int(16)) {
    case 0:
      return `0x${r.hex(r.int(40))}`
    case 1:
      return `0x${MAX_UINT256.toString(16)}`
    case 2:
      return `0x1${'0'.repeat(64 + r.int(4))}`
    case 3:
      return (MAX_UINT256 + BigInt(r.int(1000) + 1)).toString()
    case 4:
      return '9'.repeat(r.pick([79, 400, 5000]))
    case 5:
      return `0x${r.hex(20)}`
    case 6:
      return r.pick([
        '\ud800',
        '\udfff',
        'a\udc00b',
        '0x1\ud83d',
        '\ud83d\ude00',
        '\u0000',
        '\u202e',
        '\ufeff',
      ])
    case 7:
      return 'x'.repeat(r.pick([1000, 70_000, 300_000]))
    case 8:
      return r.pick(['', ' ', '0x', '0x0', '0X1', '-1', '1.5', '1e18', 'NaN', 'Infinity', 'null', 'true'])
    case 9:
      return r.pick([
        'SPONSORED',
        'ERC20',
        'SPONSORSHIP',
        'HYBRID',
        'ETH',
        'tUSDC',
        'deposit',
        'withdraw',
        'auto',
        'manual',
      ])
    case 10:
      return r.pick([
        'http://127.0.0.1:1/x',
        'ftp://x',
        'javascript:alert(1)',
        'http://',
        'http://[::1',
        '//x',
      ])
    case 11:
      return r.pick(['0.6', '0.7', '0.8', '1.1.0', 'GET', 'POST', 'PAYMASTER', 'COUNT', 'hour', 'day'])
    case 12:
      return `0x${r.hex(32)}`
    case 13:
      return `${r.int(10 ** 6)}.${r.int(10 ** 6)}`
    case 14:
      return r.pick(['__proto__', 'constructor', '../../etc/passwd', '%00', '%ED%A0%80', '<script>'])
    default:
      return String.fromCharCode(...Array.from({ length: r.int(30) }, () => r.int(0x10000)))
  }
}

/** Any JSON value, hostile more often than not; `depth` bounds ordinary nesting (deep() gives the extreme). */
export function randomValue(r: Random, depth = 0): unknown {
  const roll = r.int(depth > 3 ? 8 : 12)
  switch (roll) {
    case 0:
      return null
    case 1:
      return r.chance(0.5)
    case 2:
      return r.pick([0, -1, 1, 1.5, -0.5, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324, 300, 31337])
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
      return hostileString(r)
    case 8:
    case 9:
      return Array.from({ length: r.pick([0, 1, 2, 3, 25]) }, () => randomValue(r, depth + 1))
    case 10:
      return randomObject(r, depth + 1)
    default:
      return deep(r.pick([33, 200, 10_000]))
  }
}

export function randomObject(r: Random, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  // defineProperty: `__proto__` becomes an own key (which JSON.stringify writes), not the object's prototype.
  for (let i = r.int(6); i > 0; i--)
    Object.defineProperty(out, r.pick(FIELD_NAMES), {
      value: randomValue(r, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  return out
}

/** A variation of a valid value: one leaf replaced, a key dropped or added, an element duplicated. */
export function mutate(r: Random, value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object' || r.chance(0.15)) return randomValue(r)
  if (Array.isArray(value)) {
    if (value.length === 0 || r.chance(0.1)) return [...value, randomValue(r)]
    const copy = [...value]
    const at = r.int(copy.length)
    if (r.chance(0.1)) copy.splice(at, 1)
    else copy[at] = mutate(r, copy[at], depth + 1)
    return copy
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
  const keys = Object.keys(copy)
  const roll = r.int(10)
  if (keys.length === 0 || roll === 0)
    Object.defineProperty(copy, r.pick(FIELD_NAMES), {
      value: randomValue(r),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  else if (roll === 1) delete copy[r.pick(keys)]
  else {
    const key = r.pick(keys)
    copy[key] = mutate(r, copy[key], depth + 1)
  }
  return copy
}

/** A path or query segment: usually `valid`, else something hostile (encoded so that the URL can be built). */
export function pathSegment(r: Random, valid: string): string {
  if (r.chance(0.65)) return encodeURIComponent(valid)
  const raw = r.pick([
    '%ED%A0%80', // a lone surrogate in UTF-8's form
    '%FF%FE',
    '%',
    '..',
    '%2e%2e%2f',
    'x'.repeat(5000),
    '0x',
    `0x${'0'.repeat(64)}`,
    '-1',
    '%00',
    ' ',
  ])
  if (r.chance(0.7)) return raw
  const value = randomValue(r)
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined')
  return encodeComponent(text.slice(0, 200)).replace(/%25/g, '%')
}

/** encodeURIComponent, except that a lone surrogate goes out as its (invalid) UTF-8 form rather than throwing. */
export function encodeComponent(text: string): string {
  return text.replace(/[\ud800-\udbff][\udc00-\udfff]|[\s\S]/g, (char) => {
    if (char.length > 1 || char < '\ud800' || char > '\udfff') return encodeURIComponent(char)
    const code = char.charCodeAt(0)
    const bytes = [0xed, 0xa0 | ((code >> 6) & 0x1f), 0x80 | (code & 0x3f)]
    return bytes.map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')
  })
}

/** A seed of its own for `label` (a route, a method) under `seed`: adding a route leaves the others' cases as they were. */
export function seedFor(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ seed
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

/** `value` (an object, else wrapped in one) with `field` set to `replacement`. */
function withField(value: unknown, field: string, replacement: unknown): unknown {
  if (Array.isArray(value)) return [...value, replacement]
  const base = value !== null && typeof value === 'object' ? value : { value }
  return { ...(base as Record<string, unknown>), [field]: replacement }
}

/**
 * JSON-level hostile variants of a valid value, the extremes first (so that every route meets each of them), then
 * mutations and random values. `index` picks the variant: 0..JSON_EXTREMES-1 are the fixed extremes.
 */
export function hostileJson(r: Random, valid: unknown, index: number): { label: string; value: unknown } {
  const field = r.pick(FIELD_NAMES)
  // What withField changes, for the label: a list gets one more element.
  const where = Array.isArray(valid) ? 'an added element' : field
  switch (index) {
    case 0:
      return { label: 'nested 10,000 deep', value: deep(10_000) }
    case 1:
      return { label: `${where} nested 10,000 deep`, value: withField(valid, field, deep(10_000)) }
    case 2:
      return {
        label: `${where} a 300,000-character string`,
        value: withField(valid, field, 'x'.repeat(300_000)),
      }
    case 3:
      return {
        label: `${where} an array of 50,000 items`,
        value: withField(valid, field, Array(50_000).fill(0)),
      }
    case 4:
      return {
        label: 'an object of 10,000 keys',
        value: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
      }
    case 5:
      return { label: `${where} above uint256`, value: withField(valid, field, `0x1${'0'.repeat(64)}`) }
    case 6:
      return { label: `${where} a lone surrogate`, value: withField(valid, field, '\ud800') }
    case 7:
      return { label: 'the valid value', value: valid }
    default:
      if (r.chance(0.75)) return { label: 'a mutation of the valid value', value: mutate(r, valid) }
      return { label: 'a random value', value: r.chance(0.5) ? randomObject(r) : randomValue(r) }
  }
}
export const JSON_EXTREMES = 8

/** How a body travels: its encoding, framing and Content-Type. */
export type BodyTransport = {
  label: string
  /** The bytes to send; undefined: no body at all. */
  body?: string | Buffer
  contentType?: string
  /** Sent in chunks without a Content-Length. */
  chunked?: boolean
}

/**
 * Transport-level hostile variants of a JSON text: encodings, framing, content types. `index` picks one of
 * TRANSPORT_VARIANTS; `bodyLimit` is the service's largest accepted body.
 */
export function hostileTransport(json: string, index: number, bodyLimit: number): BodyTransport {
  const JSON_TYPE = 'application/json'
  switch (index) {
    case 0:
      return { label: 'no body, JSON content type', contentType: JSON_TYPE, body: '' }
    case 1:
      return { label: 'no body, no content type' }
    case 2:
      return { label: 'whitespace body', contentType: JSON_TYPE, body: ' \n\t ' }
    case 3:
      return {
        label: 'truncated JSON',
        contentType: JSON_TYPE,
        body: json.slice(0, Math.max(1, json.length >> 1)),
      }
    case 4:
      return { label: 'not JSON', contentType: JSON_TYPE, body: "{'a': 1, b: undefined}" }
    case 5:
      // A lone surrogate in UTF-8's (invalid) form, and bytes that are no UTF-8 at all.
      return {
        label: 'invalid UTF-8 bytes',
        contentType: JSON_TYPE,
        body: Buffer.concat([
          Buffer.from('{"name":"'),
          Buffer.from([0xed, 0xa0, 0x80, 0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
      }
    case 6:
      return { label: 'JSON text as text/plain', contentType: 'text/plain', body: json }
    case 7:
      return {
        label: 'form-encoded',
        contentType: 'application/x-www-form-urlencoded',
        body: 'name=x&active=true',
      }
    case 8:
      return {
        label: 'multipart',
        contentType: 'multipart/form-data; boundary=x',
        body: '--x\r\n\r\n1\r\n--x--',
      }
    case 9:
      return { label: 'JSON declared as UTF-16', contentType: 'application/json; charset=utf-16', body: json }
    case 10:
      return { label: 'JSON text with no content type', body: json }
    case 11:
      return { label: 'chunked JSON', contentType: JSON_TYPE, body: json, chunked: true }
    case 12:
      return {
        label: 'a body above the limit',
        contentType: JSON_TYPE,
        body: `"${'x'.repeat(bodyLimit + 16)}"`,
      }
    case 13:
      return {
        label: 'a chunked body above the limit',
        contentType: JSON_TYPE,
        body: `"${'x'.repeat(bodyLimit + 16)}"`,
        chunked: true,
      }
    case 14:
      return {
        label: 'prototype keys',
        contentType: JSON_TYPE,
        body: '{"__proto__":{"active":true},"constructor":{"prototype":{"x":1}},"active":true}',
      }
    case 15:
      return {
        label: 'duplicate keys',
        contentType: JSON_TYPE,
        body: '{"active":true,"active":"yes","name":1,"name":"a"}',
      }
    default:
      return {
        label: 'numbers beyond double',
        contentType: JSON_TYPE,
        body: '[1e999,-0,123456789012345678901234567890]',
      }
  }
}
export const TRANSPORT_VARIANTS = 17
