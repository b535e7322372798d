import { encodeFunctionData, type Hex, parseAbi } from 'viem'
import type { Call } from './types'

const executeAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
])

/**
 * The calls as SimpleAccount v0.7, LightAccount (v1.1 and v2), Trust's Barz and thirdweb take them: one call as
 * `execute(dest, value, func)`, several as `executeBatch(address[], uint256[], bytes[])`; no call, empty callData.
 */
export function encodeExecuteCalls(calls: Call[]): Hex {
  if (calls.length === 0) return '0x'
  if (calls.length === 1) {
    const [c] = calls as [Call]
    return encodeFunctionData({ abi: executeAbi, functionName: 'execute', args: [c.to, c.value, c.data] })
  }
  return encodeFunctionData({
    abi: executeAbi,
    functionName: 'executeBatch',
    args: [calls.map((c) => c.to), calls.map((c) => c.value), calls.map((c) => c.data)],
  })
}
