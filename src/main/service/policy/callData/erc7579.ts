import { type Address, decodeAbiParameters, type Hex, parseAbiParameters } from 'viem'
import { type AccountFunction, UnsupportedCallError } from './accountFunction'
import { type InnerCall, toInnerCall } from './innerCall'

const EXECUTE_PARAMS = parseAbiParameters('bytes32, bytes')
const BATCH_PARAMS = parseAbiParameters('(address target, uint256 value, bytes callData)[]')

/** ERC-7579 call types (mode byte 0) by value. */
const CALL_TYPE_NAMES: Record<number, string> = {
  0: 'single call',
  1: 'batch call',
  254: 'staticcall',
  255: 'delegatecall',
}

/**
 * execute(bytes32 mode, bytes executionCalldata) of ERC-7579 accounts (Nexus, Kernel v3, Safe7579). Mode byte 0
 * is the call type: single (0x00) is abi.encodePacked(target, value, callData), batch (0x01) is
 * abi.encode(Execution[]). Byte 1 is the exec type: default (0x00) reverts on failure, try (0x01) does not;
 * either way the same calls are made. The rest of the mode (selector, payload) does not change the calls.
 */
const decode7579Execute = (args: Hex): InnerCall[] => {
  const [mode, executionCalldata] = decodeAbiParameters(EXECUTE_PARAMS, args)
  const callType = Number.parseInt(mode.slice(2, 4), 16)
  const execType = Number.parseInt(mode.slice(4, 6), 16)
  if (execType !== 0x00 && execType !== 0x01) {
    throw new UnsupportedCallError(
      `ERC-7579 exec type ${toByte(execType)} is neither default (0x00) nor try (0x01)`,
    )
  }
  if (callType === 0x00) return [decodeSingleExecution(executionCalldata)]
  if (callType === 0x01) {
    const [executions] = decodeAbiParameters(BATCH_PARAMS, executionCalldata)
    return executions.map((e) => toInnerCall(e.target, e.value, e.callData))
  }
  const name = CALL_TYPE_NAMES[callType] ?? 'unknown call type'
  throw new UnsupportedCallError(
    `ERC-7579 call type ${toByte(callType)} (${name}) is not decoded; only single (0x00) and batch (0x01) calls are`,
  )
}

/** abi.encodePacked(address target, uint256 value, bytes callData): 20 + 32 bytes, then the call's data. */
function decodeSingleExecution(execution: Hex): InnerCall {
  const bytes = (execution.length - 2) / 2
  if (bytes < 52) {
    throw new Error(`single execution is ${bytes} bytes, shorter than its target and value (52 bytes)`)
  }
  const to = `0x${execution.slice(2, 42)}` as Address
  const value = BigInt(`0x${execution.slice(42, 106)}`)
  return toInnerCall(to, value, `0x${execution.slice(106)}`)
}

const toByte = (n: number) => `0x${n.toString(16).padStart(2, '0')}`

export const ERC7579_FUNCTIONS: Record<string, AccountFunction> = {
  '0xe9ae5c53': { name: 'execute(bytes32,bytes)', decode: decode7579Execute },
}
