import { concat, encodeAbiParameters, encodeFunctionData, type Hex, pad, parseAbi, toHex } from 'viem'
import type { Call } from './types'

const erc7579AccountAbi = parseAbi(['function execute(bytes32 mode, bytes executionCalldata) payable'])

/** ERC-7579 modes: call type (byte 0) single 0x00 or batch 0x01, exec type (byte 1) default 0x00, rest zero. */
const SINGLE_CALL_MODE: Hex = pad('0x00', { dir: 'right', size: 32 })
const BATCH_CALL_MODE: Hex = pad('0x01', { dir: 'right', size: 32 })

/**
 * ERC-7579 `execute(mode, executionCalldata)` as Kernel v3 and Nexus take it (and permissionless encodes it): one
 * call is abi.encodePacked(target, value, data), several are abi.encode(Execution[]). No calls: empty callData.
 */
export function encodeErc7579Calls(calls: Call[]): Hex {
  if (calls.length === 0) return '0x'
  if (calls.length === 1) {
    const [c] = calls as [Call]
    return encodeFunctionData({
      abi: erc7579AccountAbi,
      functionName: 'execute',
      args: [SINGLE_CALL_MODE, concat([c.to, toHex(c.value, { size: 32 }), c.data])],
    })
  }
  return encodeFunctionData({
    abi: erc7579AccountAbi,
    functionName: 'execute',
    args: [
      BATCH_CALL_MODE,
      encodeAbiParameters(
        [
          {
            type: 'tuple[]',
            components: [
              { name: 'target', type: 'address' },
              { name: 'value', type: 'uint256' },
              { name: 'callData', type: 'bytes' },
            ],
          },
        ],
        [calls.map((c) => ({ target: c.to, value: c.value, callData: c.data }))],
      ),
    ],
  })
}
