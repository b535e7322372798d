import { type AbiParameter, decodeAbiParameters, decodeErrorResult, type Hex, toFunctionSelector } from 'viem'
import { entryPointAbi } from '../abis/entryPoint'

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
 * operation ends in one of these reverts). Data of another ABI (Error(string), Panic, custom) goes to viem.
 * Throws like decodeErrorResult when nothing matches.
 */
export function decodeEntryPointError(data: Hex): DecodedEntryPointError {
  const item = errorsBySelector.get(data.slice(0, 10).toLowerCase())
  if (!item) return decodeErrorResult({ abi: entryPointAbi, data })
  return {
    abiItem: item,
    args: item.inputs.length > 0 ? decodeAbiParameters(item.inputs, `0x${data.slice(10)}`) : undefined,
    errorName: item.name,
  } as unknown as DecodedEntryPointError
}
