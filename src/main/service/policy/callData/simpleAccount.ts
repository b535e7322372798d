import { type Address, decodeAbiParameters, type Hex, parseAbiParameters } from 'viem'
import type { AccountFunction } from './accountFunction'
import { type InnerCall, toInnerCall } from './innerCall'

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
export const decodeExecute = (args: Hex): InnerCall[] => {
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
    return [toInnerCall(`0x${word(0).slice(24)}` as Address, BigInt(`0x${word(1)}`), data)]
  }
  const [to, value, data] = decodeAbiParameters(SINGLE_PARAMS, args)
  return [toInnerCall(to, value, data)]
}

/** executeBatch(address[], uint256[], bytes[]); an empty value array means no value (SimpleAccount v0.7). */
export const decodeBatchWithValues = (args: Hex): InnerCall[] => {
  const [dest, values, funcs] = decodeAbiParameters(BATCH_WITH_VALUES_PARAMS, args)
  if (funcs.length !== dest.length || (values.length !== 0 && values.length !== dest.length)) {
    throw new Error(
      `array lengths differ (dest ${dest.length}, value ${values.length}, func ${funcs.length})`,
    )
  }
  return dest.map((to, i) => toInnerCall(to, values[i] ?? 0n, funcs[i] as Hex))
}

const decodeBatchWithoutValues = (args: Hex): InnerCall[] => {
  const [dest, funcs] = decodeAbiParameters(BATCH_WITHOUT_VALUES_PARAMS, args)
  if (funcs.length !== dest.length)
    throw new Error(`array lengths differ (dest ${dest.length}, func ${funcs.length})`)
  return dest.map((to, i) => toInnerCall(to, 0n, funcs[i] as Hex))
}

const decodeBatchOfTuples = (args: Hex): InnerCall[] => {
  const [calls] = decodeAbiParameters(BATCH_OF_TUPLES_PARAMS, args)
  return calls.map((c) => toInnerCall(c.target, c.value, c.data))
}

/**
 * The execute functions of SimpleAccount and the accounts that copied its names. By selector:
 * - execute(address,uint256,bytes): SimpleAccount v0.6–v0.8, Simple7702Account, LightAccount v1/v2, Coinbase
 *   Smart Wallet, Biconomy Smart Account v2;
 * - executeBatch(address[],uint256[],bytes[]): SimpleAccount v0.7, LightAccount v1.1/v2, Biconomy v2;
 * - executeBatch(address[],bytes[]): SimpleAccount v0.6, LightAccount v1/v2;
 * - executeBatch((address,uint256,bytes)[]): SimpleAccount v0.8 and Simple7702Account (`Call[]`), Coinbase
 *   Smart Wallet (`Call[]`), Kernel v2 (`Call[]`).
 */
export const SIMPLE_ACCOUNT_FUNCTIONS: Record<string, AccountFunction> = {
  '0xb61d27f6': { name: 'execute(address,uint256,bytes)', decode: decodeExecute },
  '0x47e1da2a': { name: 'executeBatch(address[],uint256[],bytes[])', decode: decodeBatchWithValues },
  '0x18dfb3c7': { name: 'executeBatch(address[],bytes[])', decode: decodeBatchWithoutValues },
  '0x34fcd5be': { name: 'executeBatch((address,uint256,bytes)[])', decode: decodeBatchOfTuples },
}
