import { Transform } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'

/** What a trim kept and dropped of a state dump. */
export type StateDumpTrim = {
  /** The dump's head (`best_block_number`); null when it had none (then nothing was dropped). */
  bestBlockNumber: number | null
  /** The oldest block kept besides the genesis block; null when none was (or the dump was not trimmed). */
  oldestBlockKept: number | null
  blocksKept: number
  blocksDropped: number
  transactionsKept: number
  transactionsDropped: number
  /** JSON bytes of the blocks and transactions dropped: what anvil holds beyond the saved state. */
  bytesDropped: number
}

const QUOTE = 0x22
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COLON = 0x3a
const COMMA = 0x2c
const ZERO = 0x30
const NINE = 0x39

const BLOCK_NUMBER = /"number":"0x([0-9a-fA-F]+)"/
const BLOCK_TIMESTAMP = /"timestamp":"0x([0-9a-fA-F]+)"/
const TRANSACTION_BLOCK_NUMBER = '"block_number":'

export type StateDumpTrimParameters = {
  /** Blocks kept at most besides the genesis block: the newest. */
  keepBlocks: number
  /**
   * Bytes of block JSON (header and signed transactions, about 1.8 KB per UserOperation in a bundle; their receipts
   * and traces in `transactions` are about 13 KB more) kept at most: fewer of the newest blocks when theirs are
   * bigger. The head block is always kept. Default: no limit.
   */
  keepBlockBytes?: number
  /**
   * Blocks before this one are dropped too (but for the genesis block and the head, which is always kept): the
   * blocks of the chain's own deployment, megabytes of creation code and call traces no client asks for again.
   */
  firstBlock?: number
}

/**
 * Trims anvil's state dump (the JSON `anvil_dumpState` gives and `--load-state` reads: `block`, `accounts`,
 * `best_block_number`, `blocks`, `transactions`, `historical_states`, in that order) as it streams through: of
 * `blocks` it keeps the genesis block and the newest ones (at most `keepBlocks`, and within `keepBlockBytes`), of
 * `transactions` those mined in the blocks it keeps. Everything else (the accounts and their storage: the chain's
 * state) passes through as it is, so anvil loads the result with the same head (number and hash, which it takes
 * from the head block kept), balances, nonces, code and storage, and the transactions and receipts of the recent
 * blocks. The blocks of the window are held until their array ends (anvil writes them in no order), older ones are
 * dropped as they come. A dump whose head comes after its blocks (not anvil's order), or an element whose number
 * does not read, is kept whole. `push` takes the JSON text in pieces of any size and returns what to write; `end`
 * returns the rest.
 */
export function createStateDumpTrimmer({
  keepBlocks,
  keepBlockBytes = Number.POSITIVE_INFINITY,
  firstBlock = 0,
}: StateDumpTrimParameters) {
  const trim: StateDumpTrim = {
    bestBlockNumber: null,
    oldestBlockKept: null,
    blocksKept: 0,
    blocksDropped: 0,
    transactionsKept: 0,
    transactionsDropped: 0,
    bytesDropped: 0,
  }
  let depth = 0
  let inString = false
  let escaped = false
  /** At depth 1, a string now is a key (after `{` or `,`, before `:`). */
  let expectKey = false
  let capturingKey = false
  let keyParts: string[] = []
  let lastKey = ''
  /** Reading the digits of best_block_number. */
  let bestText: string | null = null
  /** Inside the top-level `blocks` or `transactions` array. */
  let section: 'blocks' | 'transactions' | null = null
  /** Pieces of the element being read (from its `{`), or null between elements. */
  let element: string[] | null = null
  let keptInSection = 0
  /** Whether text at the start of the next piece passes through (false between a section's elements). */
  let passing = true
  /** The blocks of the window, held until the end of `blocks` (numbered, and those whose number did not read). */
  let windowBlocks: { number: number; text: string }[] = []
  /** Blocks from here on are kept (set at the end of `blocks`; before it, the window's first). */
  let oldest = Number.NEGATIVE_INFINITY

  /** A block: dropped when older than the window, else held. A transaction: kept when its block is. */
  const take = (text: string): string | null => {
    if (section === 'blocks') {
      const match = BLOCK_NUMBER.exec(text)
      const number = match ? Number.parseInt(match[1] as string, 16) : Number.NaN
      if (number !== 0 && number < oldest) {
        trim.blocksDropped++
        trim.bytesDropped += text.length
      } else windowBlocks.push({ number, text })
      return null
    }
    const at = text.lastIndexOf(TRANSACTION_BLOCK_NUMBER)
    if (at === -1) return text
    const number = Number.parseInt(text.slice(at + TRANSACTION_BLOCK_NUMBER.length), 10)
    if (Number.isNaN(number)) return text
    const keep = number >= oldest
    if (keep) trim.transactionsKept++
    else {
      trim.transactionsDropped++
      trim.bytesDropped += text.length
    }
    return keep ? text : null
  }

  /**
   * The end of `blocks`: the newest of the window within the byte budget, and the genesis block, are written. anvil
   * makes a genesis block of its own at every start (and reset) and keeps the one it loads beside it: only the
   * chain's first (the earliest) is kept, so they do not pile up.
   */
  const closeBlocks = (): string => {
    const timestampOf = (text: string) =>
      Number.parseInt(BLOCK_TIMESTAMP.exec(text)?.[1] ?? 'ffffffffffff', 16)
    const genesis = windowBlocks
      .filter((b) => b.number === 0)
      .reduce<{ number: number; text: string } | undefined>(
        (first, b) => (first === undefined || timestampOf(b.text) < timestampOf(first.text) ? b : first),
        undefined,
      )
    const held = windowBlocks
      .filter((b) => b.number !== 0 || b === genesis)
      .sort((a, b) => (b.number || 0) - (a.number || 0))
    for (const b of windowBlocks) {
      if (held.includes(b)) continue
      trim.blocksDropped++
      trim.bytesDropped += b.text.length
    }
    windowBlocks = []
    let bytes = 0
    const kept: string[] = []
    for (const [i, block] of held.entries()) {
      bytes += block.text.length
      const keep = block.number === 0 || Number.isNaN(block.number) || i === 0 || bytes <= keepBlockBytes
      if (!keep) {
        trim.blocksDropped++
        trim.bytesDropped += block.text.length
        continue
      }
      kept.push(block.text)
      trim.blocksKept++
      if (block.number > 0)
        trim.oldestBlockKept = Math.min(trim.oldestBlockKept ?? block.number, block.number)
    }
    oldest = trim.oldestBlockKept ?? Number.POSITIVE_INFINITY
    return kept.join(',')
  }

  const finishBest = () => {
    if (bestText === null) return
    trim.bestBlockNumber = bestText === '' ? null : Number(bestText)
    bestText = null
  }

  const push = (piece: string): string => {
    const out: string[] = []
    let passStart = passing ? 0 : -1
    let keyStart = 0
    let elementStart = 0
    /** The piece's next backslash at or after the string being read (-1: none left). */
    let backslashAt = piece.indexOf('\\')
    for (let i = 0; i < piece.length; i++) {
      if (inString) {
        if (escaped) {
          escaped = false
          continue
        }
        // A string's text (a contract's code, storage words: most of a dump) is skipped to its end at once: only a
        // backslash or the closing quote matter in it.
        if (backslashAt !== -1 && backslashAt < i) backslashAt = piece.indexOf('\\', i)
        const quoteAt = piece.indexOf('"', i)
        if (backslashAt !== -1 && (quoteAt === -1 || backslashAt < quoteAt)) {
          escaped = true
          i = backslashAt
          continue
        }
        if (quoteAt === -1) break
        i = quoteAt
        inString = false
        if (capturingKey) {
          keyParts.push(piece.slice(keyStart, i))
          lastKey = keyParts.join('')
          capturingKey = false
        }
        continue
      }
      const c = piece.charCodeAt(i)
      if (bestText !== null) {
        if (c >= ZERO && c <= NINE) bestText += piece[i]
        else if (c === COMMA || c === CLOSE_BRACE) finishBest()
      }
      switch (c) {
        case QUOTE:
          inString = true
          if (depth === 1 && expectKey) {
            capturingKey = true
            keyParts = []
            keyStart = i + 1
          }
          break
        case COLON:
          if (depth === 1) {
            expectKey = false
            if (lastKey === 'best_block_number') bestText = ''
          }
          break
        case COMMA:
          if (depth === 1) expectKey = true
          break
        case OPEN_BRACE:
        case OPEN_BRACKET:
          depth++
          if (depth === 1) expectKey = c === OPEN_BRACE
          else if (
            depth === 2 &&
            c === OPEN_BRACKET &&
            (lastKey === 'blocks' || lastKey === 'transactions') &&
            // Trimming needs the head first (anvil writes it before the blocks); else the section passes whole.
            trim.bestBlockNumber !== null
          ) {
            section = lastKey
            keptInSection = 0
            if (section === 'blocks') {
              const best = trim.bestBlockNumber as number
              oldest = Math.min(best, Math.max(best - keepBlocks + 1, firstBlock))
            }
            if (passStart >= 0) out.push(piece.slice(passStart, i + 1))
            passStart = -1
          } else if (depth === 3 && section !== null) {
            element = []
            elementStart = i
          }
          break
        case CLOSE_BRACE:
        case CLOSE_BRACKET:
          depth--
          if (depth === 2 && section !== null && element !== null) {
            element.push(piece.slice(elementStart, i + 1))
            const text = take(element.join(''))
            element = null
            if (text !== null) out.push(keptInSection++ === 0 ? text : `,${text}`)
          } else if (depth === 1 && section !== null) {
            if (section === 'blocks') out.push(closeBlocks())
            section = null
            passStart = i
          }
          break
      }
    }
    if (capturingKey) keyParts.push(piece.slice(keyStart))
    if (element !== null) element.push(piece.slice(elementStart))
    if (passStart >= 0) out.push(piece.slice(passStart))
    passing = passStart >= 0
    return out.join('')
  }

  return {
    push,
    /** What is left once the whole dump went through (nothing, for a complete dump). */
    end(): string {
      finishBest()
      return element !== null ? element.join('') : ''
    },
    /** Whether the text so far is whole JSON values: every bracket closed, no string open. */
    isBalanced: (): boolean => depth === 0 && !inString,
    /** What was kept and dropped so far. */
    result: (): StateDumpTrim => ({ ...trim }),
  }
}

/**
 * The key anvil writes after the block and the accounts (most of a dump: the chain's code and storage), as the
 * stream looks for it in the bytes. `,"` is always outside a string (a quote inside one is escaped).
 */
const HEAD_KEY = Buffer.from(',"best_block_number":')

/** The dump's layout was not what the stream took it for: it must be trimmed reading it whole (`headFirst: false`). */
export class StateDumpLayoutError extends Error {}

/**
 * The trimmer as a stream: anvil's dump (bytes) in, the trimmed JSON (bytes) out; `result()` once it ended. With
 * `headFirst` (anvil's order), the bytes before the head key pass through as they are, neither decoded nor read
 * (they hold no block or transaction: reading them cost most of a save's CPU, and more than the rest of the service
 * in the first seconds of a run, while the code is cold); the trimmer reads from the head key on, which must then end
 * the document where its text ends (else the stream fails with StateDumpLayoutError). A dump without that key passes
 * whole, as the trimmer passes a dump without a head.
 */
export function createStateDumpTrimStream(
  parameters: StateDumpTrimParameters & { headFirst?: boolean },
): Transform & { result: () => StateDumpTrim } {
  const trimmer = createStateDumpTrimmer(parameters)
  const decoder = new StringDecoder('utf8')
  const headFirst = parameters.headFirst !== false
  /** While the head key is looked for: the last bytes seen, which may begin it (null once found, or not looked for). */
  let held: Buffer | null = headFirst ? Buffer.alloc(0) : null
  const trimText = (text: string) => {
    const out = trimmer.push(text)
    return out.length > 0 ? Buffer.from(out, 'utf8') : undefined
  }
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (held === null) return done(null, trimText(decoder.write(chunk)))
      const bytes = held.length > 0 ? Buffer.concat([held, chunk]) : chunk
      const at = bytes.indexOf(HEAD_KEY)
      if (at === -1) {
        const kept = Math.min(bytes.length, HEAD_KEY.length - 1)
        held = Buffer.from(bytes.subarray(bytes.length - kept))
        return done(null, kept < bytes.length ? bytes.subarray(0, bytes.length - kept) : undefined)
      }
      held = null
      // From the head key on, read as a document of its own whose first key it is (its comma made a brace).
      const rest = trimmer.push(`{${decoder.write(bytes.subarray(at + 1))}`)
      if (!rest.startsWith('{'))
        return done(new StateDumpLayoutError('the head key did not start what was kept'))
      done(null, Buffer.concat([bytes.subarray(0, at), Buffer.from(`,${rest.slice(1)}`, 'utf8')]))
    },
    flush(done) {
      if (held !== null) return done(null, held.length > 0 ? held : undefined)
      const text = trimmer.push(decoder.end()) + trimmer.end()
      if (headFirst && !trimmer.isBalanced())
        return done(new StateDumpLayoutError('the state dump does not end where its head key says it does'))
      done(null, text.length > 0 ? Buffer.from(text, 'utf8') : undefined)
    },
  })
  return Object.assign(stream, { result: trimmer.result })
}
