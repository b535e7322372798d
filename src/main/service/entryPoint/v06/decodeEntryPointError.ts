import { type AbiParameter, decodeAbiParameters, decodeErrorResult, type Hex, toFunctionSelector } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'

export type DecodedEntryPointError = ReturnType<typeof decodeErrorResult<typeof entryPointAbi>>

type ErrorItem = { type: 'error'; name: string; inputs: readonly AbiParameter[] }

/** The EntryPoint's errors by selector, computed once. */
const errorsBySelector = new Map<string, ErrorItem>()
for (const item of entryPointAbi as readonly { type: string }[]) {
  if (item.type === 'error') errorsBySelector.set(toFunctionSelector(item as never), item as ErrorItem)
}

/**
 * Decodes revert data with the EntryPoint ABI: viem's decodeErrorResult, with the error found by its selector in
 * a map instead of formatting and hashing every error of the ABI on each call (every simulation of every
 * operation ends in one of these reverts), and the three that end nearly every simulation (ValidationResult,
 * ExecutionResult, FailedOp) read straight off their fixed layouts. Data of another ABI (Error(string), Panic,
 * custom) goes to viem. Throws like decodeErrorResult when nothing matches.
 */
export function decodeEntryPointError(data: Hex): DecodedEntryPointError {
  const selector = data.slice(0, 10).toLowerCase()
  const item = errorsBySelector.get(selector)
  if (!item) return decodeErrorResult({ abi: entryPointAbi, data })
  const fast = decodeHotError(item, data)
  if (fast) return fast as unknown as DecodedEntryPointError
  return {
    abiItem: item,
    args: item.inputs.length > 0 ? decodeAbiParameters(item.inputs, `0x${data.slice(10)}`) : undefined,
    errorName: item.name,
  } as unknown as DecodedEntryPointError
}

/** 32-byte word `index` of the arguments (after the selector), as hex digits. */
const wordAt = (data: Hex, index: number) => data.slice(10 + index * 64, 10 + (index + 1) * 64)
const uintAt = (data: Hex, index: number) => BigInt(`0x${wordAt(data, index)}`)

/** ABI `bytes` whose length word is word `index`; null when the data is too short. */
function bytesAt(data: Hex, index: number): Hex | null {
  const length = Number(uintAt(data, index))
  const start = 10 + (index + 1) * 64
  if (!Number.isSafeInteger(length) || start + length * 2 > data.length) return null
  return `0x${data.slice(start, start + length * 2).toLowerCase()}` as Hex
}

/** A word offset (bytes from `base` words) as a word index; null when not word-aligned or past the end. */
function wordIndexOf(data: Hex, index: number, base = 0): number | null {
  const offset = uintAt(data, index)
  if (offset % 32n !== 0n) return null
  const at = base + Number(offset / 32n)
  return 10 + (at + 1) * 64 <= data.length ? at : null
}

/**
 * ValidationResult, ExecutionResult and FailedOp decoded by hand (the same values and shapes viem returns;
 * tested against viem); null for any other error or data that does not have the expected layout.
 */
function decodeHotError(
  item: ErrorItem,
  data: Hex,
): { abiItem: ErrorItem; args: unknown[]; errorName: string } | null {
  if (data.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(data)) return null
  const result = (args: unknown[]) => ({ abiItem: item, args, errorName: item.name })
  if (item.name === 'FailedOp') {
    const at = wordIndexOf(data, 1)
    const reason = at === null ? null : bytesAt(data, at)
    if (reason === null) return null
    return result([uintAt(data, 0), Buffer.from(reason.slice(2), 'hex').toString('utf8')])
  }
  if (item.name === 'ExecutionResult') {
    const at = wordIndexOf(data, 5)
    const targetResult = at === null ? null : bytesAt(data, at)
    if (targetResult === null) return null
    return result([
      uintAt(data, 0),
      uintAt(data, 1),
      Number(uintAt(data, 2)),
      Number(uintAt(data, 3)),
      uintAt(data, 4) !== 0n,
      targetResult,
    ])
  }
  if (item.name === 'ValidationResult') {
    const info = wordIndexOf(data, 0)
    if (info === null) return null
    const context = wordIndexOf(data, info + 5, info)
    const paymasterContext = context === null ? null : bytesAt(data, context)
    if (paymasterContext === null) return null
    const stake = (index: number) => ({
      stake: uintAt(data, index),
      unstakeDelaySec: uintAt(data, index + 1),
    })
    return result([
      {
        preOpGas: uintAt(data, info),
        prefund: uintAt(data, info + 1),
        sigFailed: uintAt(data, info + 2) !== 0n,
        validAfter: Number(uintAt(data, info + 3)),
        validUntil: Number(uintAt(data, info + 4)),
        paymasterContext,
      },
      stake(1),
      stake(3),
      stake(5),
    ])
  }
  return null
}
