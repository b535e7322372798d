import { encodeFunctionData, type Hex, parseAbi } from 'viem'
import type { Call } from './types'

const callStructsAbi = parseAbi([
  'function execute(address target, uint256 value, bytes data) payable',
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls) payable',
])

/**
 * The calls as the Coinbase Smart Wallet and Alchemy's Modular Accounts (v1's IStandardExecutor, v2) take them: one
 * call as `execute(target, value, data)`, otherwise `executeBatch(Call[])` (no call: an empty list, as viem batches none).
 */
export function encodeCallStructs(calls: Call[]): Hex {
  if (calls.length === 1) {
    const [c] = calls as [Call]
    return encodeFunctionData({ abi: callStructsAbi, functionName: 'execute', args: [c.to, c.value, c.data] })
  }
  return encodeFunctionData({
    abi: callStructsAbi,
    functionName: 'executeBatch',
    args: [calls.map((c) => ({ target: c.to, value: c.value, data: c.data }))],
  })
}
