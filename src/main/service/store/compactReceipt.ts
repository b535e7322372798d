import jsSha3 from 'js-sha3'

/** A transaction receipt as the node answers eth_getTransactionReceipt (0x-hex quantities, logs). */
export type NodeReceipt = Record<string, unknown> & { transactionHash: string; logs: NodeLog[] }
type NodeLog = Record<string, unknown> & { address: string; topics: string[]; data: string }

/**
 * A receipt without what its other fields give again: the bloom filter (from the logs' addresses and topics) and,
 * in each log, the fields every log of the receipt has alike (block, transaction: stored once, and not at all when
 * the receipt has the same field) and the log index (consecutive). The key order is kept (stored only when it is not
 * anvil's), so `expandReceipt` gives the very object the node gave. A receipt that does not follow that pattern is
 * kept whole (`raw`).
 */
export type CompactReceipt =
  | {
      /** The receipt's keys in the node's order, when not RECEIPT_KEYS. */
      k?: string[]
      /** Every field but `logs` and `logsBloom`. */
      f: Record<string, unknown>
      /** A log's keys in the node's order, when not LOG_KEYS. */
      lk?: string[]
      /** What every log has alike and the receipt has not under the same key. */
      s: Record<string, unknown>
      /** The first log's index. */
      i: string | null
      /** [address, topics, data] of each log. */
      l: [string, string[], string][]
    }
  | { raw: NodeReceipt }

/** anvil 1.7.1's order of a receipt's keys and of a log's. */
const RECEIPT_KEYS = [
  'type',
  'status',
  'cumulativeGasUsed',
  'logs',
  'logsBloom',
  'transactionHash',
  'transactionIndex',
  'blockHash',
  'blockNumber',
  'gasUsed',
  'effectiveGasPrice',
  'blobGasPrice',
  'from',
  'to',
  'contractAddress',
  'blockTimestamp',
]
const LOG_KEYS = [
  'address',
  'topics',
  'data',
  'blockHash',
  'blockNumber',
  'blockTimestamp',
  'transactionHash',
  'transactionIndex',
  'logIndex',
  'removed',
]
const OWN = new Set(['address', 'topics', 'data', 'logIndex'])
const sameKeys = (a: string[], b: string[]) => a.length === b.length && a.every((key, i) => key === b[i])

/** The receipt in its compact form (about half the size of a bundle's receipt, less with many logs). */
export function compactReceipt(receipt: NodeReceipt): CompactReceipt {
  const first = receipt.logs[0]
  const keys = Object.keys(receipt)
  const logKeys = first ? Object.keys(first) : LOG_KEYS
  const fields: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(receipt))
    if (key !== 'logs' && key !== 'logsBloom') fields[key] = value
  const shared: Record<string, unknown> = {}
  for (const key of logKeys) if (!OWN.has(key) && first?.[key] !== fields[key]) shared[key] = first?.[key]
  const compact: CompactReceipt = {
    ...(sameKeys(keys, RECEIPT_KEYS) ? {} : { k: keys }),
    f: fields,
    ...(sameKeys(logKeys, LOG_KEYS) ? {} : { lk: logKeys }),
    s: shared,
    i: typeof first?.logIndex === 'string' ? first.logIndex : null,
    l: receipt.logs.map((log) => [log.address, log.topics, log.data]),
  }
  // Kept compact only when it gives back exactly what the node said.
  return JSON.stringify(expandReceipt(compact)) === JSON.stringify(receipt) ? compact : { raw: receipt }
}

/** The receipt as the node gave it. */
export function expandReceipt(compact: CompactReceipt): NodeReceipt {
  if ('raw' in compact) return compact.raw
  const first = compact.i === null ? 0 : Number(BigInt(compact.i))
  const logs = compact.l.map(([address, topics, data], i) => {
    const log: Record<string, unknown> = {}
    for (const key of compact.lk ?? LOG_KEYS) {
      if (key === 'address') log[key] = address
      else if (key === 'topics') log[key] = topics
      else if (key === 'data') log[key] = data
      else if (key === 'logIndex') log[key] = `0x${(first + i).toString(16)}`
      else log[key] = key in compact.s ? compact.s[key] : compact.f[key]
    }
    return log as NodeLog
  })
  const receipt: Record<string, unknown> = {}
  for (const key of compact.k ?? RECEIPT_KEYS) {
    if (key === 'logs') receipt[key] = logs
    else if (key === 'logsBloom') receipt[key] = logsBloom(logs)
    else receipt[key] = compact.f[key]
  }
  return receipt as NodeReceipt
}

/** The 2048-bit bloom filter of logs (yellow paper, M3:2048 of each address and topic), as 0x-hex. */
export function logsBloom(logs: { address: string; topics: string[] }[]): string {
  const bloom = new Uint8Array(256)
  const add = (hex: string) => {
    for (const bit of readBloomBits(hex))
      bloom[255 - (bit >> 3)] = (bloom[255 - (bit >> 3)] as number) | (1 << (bit & 7))
  }
  for (const log of logs) {
    add(log.address)
    for (const topic of log.topics) add(topic)
  }
  return `0x${Buffer.from(bloom).toString('hex')}`
}

/**
 * The three bloom bits of an address or topic, kept for the ones seen last: most of a bundle's are the same every
 * time (the EntryPoint and paymaster addresses, the events' selectors, the accounts), and each costs a keccak256.
 */
const bloomBits = new Map<string, readonly number[]>()
const BLOOM_BITS_KEPT = 4096

function readBloomBits(hex: string): readonly number[] {
  const known = bloomBits.get(hex)
  if (known) return known
  const hash = jsSha3.keccak256.array(Buffer.from(hex.slice(2), 'hex'))
  const bits = [0, 2, 4].map((i) => (((hash[i] as number) << 8) | (hash[i + 1] as number)) & 2047)
  if (bloomBits.size >= BLOOM_BITS_KEPT) bloomBits.clear()
  bloomBits.set(hex, bits)
  return bits
}
