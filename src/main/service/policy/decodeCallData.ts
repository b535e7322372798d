import { type Address, decodeAbiParameters, type Hex, parseAbiParameters, size, slice } from 'viem'
import { checksumAddress } from '../chain/checksumAddress'

/** One call an account makes on behalf of the UserOperation. */
export type InnerCall = {
  to: Address
  value: bigint
  data: Hex
  /** First four bytes of `data`; null for a plain value transfer (empty data). */
  selector: Hex | null
}

export type DecodedCallData =
  /** An account execute function with its inner calls. */
  | { kind: 'calls'; accountFunction: string; calls: InnerCall[] }
  /** Empty callData with an initCode: the op only deploys the account. */
  | { kind: 'deployOnly' }
  /** Empty callData on an existing account. */
  | { kind: 'empty' }
  /** A selector the decoder does not know, or arguments that do not decode. */
  | { kind: 'unknown'; selector: Hex | null; reason: string }

type AccountFunction = {
  name: string
  decode: (args: Hex) => InnerCall[]
}

// Parsed once: parseAbiParameters is costly and decoding runs for every operation sent.
const SINGLE_PARAMS = parseAbiParameters('address, uint256, bytes')
const BATCH_WITH_VALUES_PARAMS = parseAbiParameters('address[], uint256[], bytes[]')
const BATCH_WITHOUT_VALUES_PARAMS = parseAbiParameters('address[], bytes[]')
const BATCH_OF_TUPLES_PARAMS = parseAbiParameters('(address target, uint256 value, bytes data)[]')

/**
 * execute(address, uint256, bytes), the call of nearly every operation: read off its standard layout (offset
 * 0x60 to the bytes), viem's decoder for anything else.
 */
const OFFSET_0X60 = `${'0'.repeat(62)}60`
const single = (args: Hex): InnerCall[] => {
  const word = (i: number) => args.slice(2 + i * 64, 2 + (i + 1) * 64)
  const length = args.length >= 2 + 4 * 64 ? Number.parseInt(word(3), 16) : -1
  const end = 2 + 4 * 64 + length * 2
  if (
    word(2) === OFFSET_0X60 &&
    /^0{24}/.test(word(0)) &&
    length >= 0 &&
    Number.isSafeInteger(length) &&
    end <= args.length
  ) {
    const data = `0x${args.slice(2 + 4 * 64, end)}` as Hex
    return [toCall(`0x${word(0).slice(24)}` as Address, BigInt(`0x${word(1)}`), data)]
  }
  const [to, value, data] = decodeAbiParameters(SINGLE_PARAMS, args)
  return [toCall(to, value, data)]
}

const batchWithValues = (args: Hex): InnerCall[] => {
  const [dest, values, funcs] = decodeAbiParameters(BATCH_WITH_VALUES_PARAMS, args)
  if (funcs.length !== dest.length || (values.length !== 0 && values.length !== dest.length)) {
    throw new Error(
      `array lengths differ (dest ${dest.length}, value ${values.length}, func ${funcs.length})`,
    )
  }
  return dest.map((to, i) => toCall(to, values[i] ?? 0n, funcs[i] as Hex))
}

const batchWithoutValues = (args: Hex): InnerCall[] => {
  const [dest, funcs] = decodeAbiParameters(BATCH_WITHOUT_VALUES_PARAMS, args)
  if (funcs.length !== dest.length)
    throw new Error(`array lengths differ (dest ${dest.length}, func ${funcs.length})`)
  return dest.map((to, i) => toCall(to, 0n, funcs[i] as Hex))
}

const batchOfTuples = (args: Hex): InnerCall[] => {
  const [calls] = decodeAbiParameters(BATCH_OF_TUPLES_PARAMS, args)
  return calls.map((c) => toCall(c.target, c.value, c.data))
}

/**
 * Account execute functions by selector (biconomy-protocol.md section 5): Smart Account v2 and SimpleAccount
 * (v0.6, plus the v0.7 tuple batch some clients emit).
 */
export const ACCOUNT_FUNCTIONS: Record<string, AccountFunction> = {
  '0x0000189a': { name: 'execute_ncC(address,uint256,bytes)', decode: single },
  '0xb61d27f6': { name: 'execute(address,uint256,bytes)', decode: single },
  '0x00004680': { name: 'executeBatch_y6U(address[],uint256[],bytes[])', decode: batchWithValues },
  '0x47e1da2a': { name: 'executeBatch(address[],uint256[],bytes[])', decode: batchWithValues },
  '0x18dfb3c7': { name: 'executeBatch(address[],bytes[])', decode: batchWithoutValues },
  '0x34fcd5be': { name: 'executeBatch((address,uint256,bytes)[])', decode: batchOfTuples },
}

/** Decodes an account's callData into the calls it will make. Never throws. */
export function decodeCallData(callData: Hex, initCode: Hex = '0x'): DecodedCallData {
  if (size(callData) === 0) return size(initCode) > 0 ? { kind: 'deployOnly' } : { kind: 'empty' }
  if (size(callData) < 4)
    return { kind: 'unknown', selector: null, reason: 'callData is shorter than a selector' }
  const selector = slice(callData, 0, 4).toLowerCase() as Hex
  const fn = ACCOUNT_FUNCTIONS[selector]
  if (!fn) {
    return {
      kind: 'unknown',
      selector,
      reason: `selector ${selector} is not an account execute function this paymaster decodes`,
    }
  }
  try {
    return { kind: 'calls', accountFunction: fn.name, calls: fn.decode(slice(callData, 4)) }
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err)
    return { kind: 'unknown', selector, reason: `${fn.name} arguments do not decode (${why})` }
  }
}

function toCall(to: Address, value: bigint, data: Hex): InnerCall {
  return {
    to: checksumAddress(to),
    value,
    data,
    selector: size(data) >= 4 ? (slice(data, 0, 4).toLowerCase() as Hex) : null,
  }
}
