import { concat, encodeFunctionData, encodePacked, type Hex, parseAbi, size } from 'viem'
import type { Call } from './types'

const multiSendAbi = parseAbi(['function multiSend(bytes transactions) payable'])

/** A MultiSend transaction: operation 0 is a call, 1 a delegatecall (made from the Safe delegatecalling MultiSend). */
export type MultiSendTransaction = Call & { operation: 0 | 1 }

/**
 * Safe's `multiSend(bytes)`: each transaction packed as operation (uint8), to (address), value (uint256), data
 * length (uint256) and data, back to back.
 */
export function encodeMultiSend(transactions: MultiSendTransaction[]): Hex {
  const packed = concat([
    '0x',
    ...transactions.map((tx) =>
      encodePacked(
        ['uint8', 'address', 'uint256', 'uint256', 'bytes'],
        [tx.operation, tx.to, tx.value, BigInt(size(tx.data)), tx.data],
      ),
    ),
  ])
  return encodeFunctionData({ abi: multiSendAbi, functionName: 'multiSend', args: [packed] })
}
