import { type Abi, decodeAbiParameters, decodeErrorResult, type Hex, size, slice } from 'viem'
import { panicReasons } from '../chain/entryPoint/decodeRevert'
import { formatValue, showValue } from './formatValue'
import type { DecodedReason } from './types'

type AbiError = Extract<Abi[number], { type: 'error' }>

const ERROR_STRING = '0x08c379a0'
const PANIC = '0x4e487b71'

/**
 * Decodes revert data: `Error(string)`, `Panic(uint256)` with its meaning, or a custom error of `abi` with its
 * arguments (a `bytes` argument that is itself a known error is decoded too, as the EntryPoint's
 * `FailedOpWithRevert` carries the account's). Empty data is told as such; an unknown selector is shown raw,
 * never guessed.
 */
export function decodeRevertData(data: Hex | null | undefined, abi: Abi = []): DecodedReason {
  if (!data || data === '0x') return { kind: 'empty', text: 'reverted without data', data: '0x' }
  if (size(data) < 4) return { kind: 'unknown', text: `reverted with ${data}`, data }
  const selector = slice(data, 0, 4).toLowerCase()
  try {
    if (selector === ERROR_STRING) {
      const [message] = decodeAbiParameters([{ type: 'string' }], slice(data, 4))
      return { kind: 'error-string', name: 'Error', args: [message], text: message, data }
    }
    if (selector === PANIC) {
      const [code] = decodeAbiParameters([{ type: 'uint256' }], slice(data, 4))
      const hexCode = `0x${code.toString(16).padStart(2, '0')}`
      const meaning = panicReasons[Number(code)] ?? (code === 0n ? 'generic panic' : 'unknown panic code')
      return {
        kind: 'panic',
        name: 'Panic',
        args: [code.toString()],
        text: `Panic(${hexCode}): ${meaning}`,
        data,
      }
    }
  } catch {
    return { kind: 'unknown', text: `reverted with ${data}`, data }
  }
  const errors = abi.filter((item): item is AbiError => item.type === 'error')
  try {
    const { errorName, args = [], abiItem } = decodeErrorResult({ abi: errors, data })
    const inputs = (abiItem as AbiError).inputs
    const shown = args.map((arg: unknown, i: number) => {
      if (inputs[i]?.type !== 'bytes' || typeof arg !== 'string') return showValue(arg)
      const inner = decodeRevertData(arg as Hex, errors)
      return inner.kind === 'custom-error' || inner.kind === 'error-string' || inner.kind === 'panic'
        ? inner.text
        : showValue(arg)
    })
    return {
      kind: 'custom-error',
      name: errorName,
      args: args.map(formatValue),
      text: `${errorName}(${shown.join(', ')})`,
      data,
    }
  } catch {
    return { kind: 'unknown', text: `unknown error ${selector} (${size(data)} bytes of revert data)`, data }
  }
}
