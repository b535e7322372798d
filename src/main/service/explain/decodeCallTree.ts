import { type Abi, decodeFunctionData, getAbiItem, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { checksumAddress } from '../chain/checksumAddress'
import type { ContractBook } from './contractBook'
import { decodeRevertData } from './decodeRevertData'
import { formatValue } from './formatValue'
import type { DecodedReason, ExplainedCall, TracedFrame } from './types'

/** `withdraw(uint256)` and its arguments, when the callee's ABI has the selector; null otherwise (never guessed). */
export function decodeCallInput(abi: Abi, input: Hex): { function: string; args: unknown[] } | null {
  if (abi.length === 0 || input.length < 10) return null
  try {
    const { functionName, args = [] } = decodeFunctionData({ abi, data: input })
    const item = getAbiItem({ abi, name: functionName, args: args as unknown[] }) as
      | Parameters<typeof formatAbiItem>[0]
      | undefined
    const signature = item ? formatAbiItem(item) : functionName
    return { function: signature, args: args.map(formatValue) }
  } catch {
    return null
  }
}

/** Why a frame failed: `out of gas` from the node, else its revert data decoded with its ABI and every known error. */
export function explainFrameError(frame: TracedFrame, book: ContractBook): DecodedReason | undefined {
  if (!frame.error) return undefined
  if (isOutOfGas(frame)) return { kind: 'out-of-gas', text: 'out of gas', data: frame.output ?? '0x' }
  const own = book.lookup(frame.to)?.abi ?? []
  return decodeRevertData(frame.output, [...own, ...book.errors])
}

/** The node halted the frame for want of gas (geth and anvil say `out of gas`). */
export const isOutOfGas = (frame: TracedFrame): boolean => /out of gas/i.test(frame.error ?? '')

/** The call tree with each call decoded where the callee's ABI is known. */
export function decodeCallTree(frame: TracedFrame, book: ContractBook): ExplainedCall {
  const contract = book.lookup(frame.to)
  const decoded = contract ? decodeCallInput(contract.abi, frame.input) : null
  const reason = explainFrameError(frame, book)
  return {
    type: frame.type,
    from: checksumAddress(frame.from),
    to: frame.to ? checksumAddress(frame.to) : null,
    contract: contract?.name ?? null,
    function: decoded?.function ?? null,
    ...(decoded ? { args: decoded.args } : { input: frame.input }),
    value: BigInt(frame.value ?? '0x0').toString(),
    gas: BigInt(frame.gas).toString(),
    gasUsed: BigInt(frame.gasUsed).toString(),
    error: frame.error ?? null,
    ...(reason ? { reason } : {}),
    calls: (frame.calls ?? []).map((call) => decodeCallTree(call, book)),
  }
}
