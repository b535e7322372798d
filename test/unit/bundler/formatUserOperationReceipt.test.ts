import { encodeAbiParameters, pad, toEventSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import type { RpcTransactionReceipt } from '../../../src/main/service/bundler/bundling/createBundleSender'
import { parseBundleLogs, type RpcLog } from '../../../src/main/service/bundler/bundling/parseBundleLogs'
import {
  formatBiconomyReceipt,
  formatStandardReceipt,
  toEthersBigNumber,
} from '../../../src/main/service/bundler/receipts/formatUserOperationReceipt'

const EP = '0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789'
const SENDER = '0x1111111111111111111111111111111111111111'
const TOKEN = '0x2222222222222222222222222222222222222222'
const HASH_A = `0x${'aa'.repeat(32)}` as const
const HASH_B = `0x${'bb'.repeat(32)}` as const
const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)',
)
const REVERT_REASON = toEventSelector('UserOperationRevertReason(bytes32,address,uint256,bytes)')
const BEFORE_EXECUTION = toEventSelector('BeforeExecution()')

const log = (index: number, address: string, topics: string[], data = '0x'): RpcLog =>
  ({
    address,
    topics,
    data,
    blockNumber: '0x10',
    blockHash: `0x${'cc'.repeat(32)}`,
    transactionHash: `0x${'dd'.repeat(32)}`,
    transactionIndex: '0x0',
    logIndex: `0x${index.toString(16)}`,
  }) as RpcLog

const opEvent = (index: number, hash: string, nonce: bigint, success: boolean) =>
  log(
    index,
    EP,
    [USER_OPERATION_EVENT, hash, pad(SENDER), pad('0x00')],
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
      [nonce, success, 123_000_000_000n, 61_500n],
    ),
  )

const logs: RpcLog[] = [
  log(0, EP, [toEventSelector('Deposited(address,uint256)'), pad(SENDER)]),
  log(1, EP, [BEFORE_EXECUTION]),
  log(2, TOKEN, [toEventSelector('Transfer(address,address,uint256)')]),
  opEvent(3, HASH_A, 0n, true),
  log(
    4,
    EP,
    [REVERT_REASON, HASH_B, pad(SENDER)],
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bytes' }],
      [
        1n,
        '0x08c379a000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000004626f6f6d00000000000000000000000000000000000000000000000000000000',
      ],
    ),
  ),
  opEvent(5, HASH_B, 1n, false),
]

const receipt: RpcTransactionReceipt = {
  transactionHash: `0x${'dd'.repeat(32)}`,
  transactionIndex: '0x0',
  blockHash: `0x${'cc'.repeat(32)}`,
  blockNumber: '0x10',
  from: '0x9999999999999999999999999999999999999999',
  to: EP,
  contractAddress: null,
  cumulativeGasUsed: '0x1e240',
  gasUsed: '0x1e240',
  effectiveGasPrice: '0x3b9aca00',
  logs,
  logsBloom: `0x${'00'.repeat(256)}`,
  status: '0x1',
  type: '0x2',
}

describe('parseBundleLogs', () => {
  it("gives each operation the logs after the previous one's UserOperationEvent, and its revert reason", () => {
    const outcomes = parseBundleLogs(logs, EP)
    expect(outcomes.get(HASH_A)).toMatchObject({
      success: true,
      nonce: 0n,
      logRange: [2, 3],
      actualGasUsed: 61_500n,
    })
    expect(outcomes.get(HASH_B)).toMatchObject({
      success: false,
      nonce: 1n,
      logRange: [4, 5],
      revertReason: 'boom',
      revert: { phase: 'execution', data: expect.stringMatching(/^0x08c379a0/) },
    })
    expect(outcomes.get(HASH_A)?.revert).toBeNull()
  })

  it("keeps a postOp's revert data (PostOpRevertReason) with the phase, for the bundler to decode", () => {
    const postOpData = '0x12345678'
    const outcomes = parseBundleLogs(
      [
        log(0, EP, [BEFORE_EXECUTION]),
        log(
          1,
          EP,
          [toEventSelector('PostOpRevertReason(bytes32,address,uint256,bytes)'), HASH_A, pad(SENDER)],
          encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [0n, postOpData]),
        ),
        opEvent(2, HASH_A, 0n, false),
      ],
      EP,
    )
    expect(outcomes.get(HASH_A)).toMatchObject({
      success: false,
      revert: { phase: 'postOp', data: postOpData },
      revertReason: `postOp reverted: ${postOpData}`,
    })
  })
})

describe('parseBundleLogs: UserOperationEvent data', () => {
  const withData = (data: string) =>
    [log(0, EP, [BEFORE_EXECUTION]), { ...opEvent(1, HASH_A, 0n, true), data }] as RpcLog[]

  it("reads nonce, success and gas as viem's decoder does, up to full 256-bit words", () => {
    const max = (1n << 256n) - 1n
    const data = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
      [max, false, 123_000_000_000n, max - 1n],
    )
    expect(parseBundleLogs(withData(data), EP).get(HASH_A)).toMatchObject({
      nonce: max,
      success: false,
      actualGasCost: 123_000_000_000n,
      actualGasUsed: max - 1n,
    })
  })

  it('rejects data that is not four words with a 0/1 boolean', () => {
    const good = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }],
      [1n, true, 2n, 3n],
    )
    const badBool = `${good.slice(0, 66)}${'0'.repeat(63)}2${good.slice(130)}`
    expect(() => parseBundleLogs(withData(badBool), EP)).toThrow()
    expect(() => parseBundleLogs(withData(good.slice(0, 130)), EP)).toThrow()
  })
})

describe('receipt formats', () => {
  const source = {
    userOpHash: HASH_A,
    entryPoint: EP,
    sender: SENDER,
    nonce: 0n,
    paymaster: null,
    success: true,
    actualGasCost: 123_000_000_000n,
    actualGasUsed: 61_500n,
    revertReason: null,
    logRange: [2, 3] as [number, number],
    receipt,
    latestBlockNumber: 0x12n,
  } as const

  it('Biconomy (spec section 2.4): success as a string, numbers, ethers big numbers, only this operation logs', () => {
    const formatted = formatBiconomyReceipt(source)
    expect(formatted).toMatchObject({
      success: 'true',
      nonce: 0,
      actualGasCost: 123_000_000_000,
      actualGasUsed: 61_500,
      paymaster: '0x0000000000000000000000000000000000000000',
      reason: '',
    })
    expect(formatted.logs.map((l) => l.logIndex)).toEqual([2, 3])
    expect(formatted.logs[0]).toEqual({
      transactionIndex: 0,
      blockNumber: 16,
      transactionHash: receipt.transactionHash,
      address: TOKEN,
      topics: logs[2]!.topics,
      data: '0x',
      logIndex: 2,
      blockHash: receipt.blockHash,
    })
    expect(formatted.receipt).toMatchObject({
      gasUsed: { _hex: '0x01e240', _isBigNumber: true },
      effectiveGasPrice: { _hex: '0x3b9aca00', _isBigNumber: true },
      blockNumber: 16,
      confirmations: 3,
      status: 1,
      type: 2,
      byzantium: true,
      contractAddress: null,
    })
    expect(formatted.receipt.logs).toHaveLength(logs.length)
  })

  it('ERC-4337 RPC: quantities as hex, success a boolean, the node receipt unchanged', () => {
    const formatted = formatStandardReceipt(source)
    expect(formatted).toMatchObject({ success: true, nonce: '0x0', actualGasUsed: '0xf03c', receipt })
    expect(formatted.logs).toEqual([logs[2], logs[3]])
  })

  it('pads ethers hex to whole bytes', () => {
    expect(toEthersBigNumber(0n)._hex).toBe('0x00')
    expect(toEthersBigNumber(0xabcn)._hex).toBe('0x0abc')
  })
})
