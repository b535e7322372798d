import {
  type AbiEvent,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  type Log,
  parseAbiItem,
  parseEventLogs,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { createEventDecoder } from '../../../src/main/service/chain/abis/decodeEventLogs'

const userOperationEvent = parseAbiItem(
  'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const gasBalanceDeducted = parseAbiItem(
  'event GasBalanceDeducted(address indexed _paymasterId, uint256 indexed _charge)',
)
const gasTankCharged = parseAbiItem(
  'event GasTankCharged(address indexed paymasterId, address indexed sender, uint256 charge)',
)
const withDynamicIndex = parseAbiItem('event Named(string indexed name, bytes data)')

const address = '0x1111111111111111111111111111111111111111'
const sender = '0x2222222222222222222222222222222222222222'
let logIndex = 0
/** A log as a formatted receipt gives it. */
const logOf = (topics: Hex[], data: Hex): Log =>
  ({
    address,
    topics,
    data,
    blockHash: `0x${'aa'.repeat(32)}`,
    blockNumber: 7n,
    transactionHash: `0x${'bb'.repeat(32)}`,
    transactionIndex: 0,
    logIndex: logIndex++,
    removed: false,
  }) as unknown as Log

const logs: Log[] = [
  logOf(
    encodeEventTopics({
      abi: [userOperationEvent],
      args: { userOpHash: `0x${'cc'.repeat(32)}`, sender, paymaster: address },
    }) as Hex[],
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
      [5n, true, 123_456n, 78_901n],
    ),
  ),
  logOf(
    encodeEventTopics({ abi: [gasBalanceDeducted], args: { _paymasterId: sender, _charge: 99n } }) as Hex[],
    '0x',
  ),
  logOf(
    encodeEventTopics({ abi: [gasTankCharged], args: { paymasterId: sender, sender: address } }) as Hex[],
    encodeAbiParameters([{ type: 'uint256' }], [42n]),
  ),
  logOf(
    encodeEventTopics({ abi: [withDynamicIndex], args: { name: 'opstation' } }) as Hex[],
    encodeAbiParameters([{ type: 'bytes' }], ['0x1234']),
  ),
  // A UserOperationEvent whose data is cut short, and one with a topic missing: neither decodes.
  logOf(
    encodeEventTopics({
      abi: [userOperationEvent],
      args: { userOpHash: `0x${'dd'.repeat(32)}`, sender, paymaster: address },
    }) as Hex[],
    '0x01',
  ),
  logOf(
    (
      encodeEventTopics({
        abi: [userOperationEvent],
        args: { userOpHash: `0x${'ee'.repeat(32)}`, sender, paymaster: address },
      }) as Hex[]
    ).slice(0, 3),
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
      [1n, false, 1n, 1n],
    ),
  ),
]

describe('createEventDecoder', () => {
  it.each([userOperationEvent, gasBalanceDeducted, gasTankCharged, withDynamicIndex] as AbiEvent[])(
    'decodes the logs of $name as viem parseEventLogs does, leaving out other events and logs that do not decode',
    (event) => {
      const decoded = createEventDecoder(event)(logs)
      expect(decoded.length).toBe(1)
      expect(decoded).toEqual(parseEventLogs({ abi: [event], logs }))
    },
  )
})
