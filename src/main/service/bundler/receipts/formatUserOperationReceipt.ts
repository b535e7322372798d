import { type Address, type Hex, hexToBigInt, zeroAddress } from 'viem'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import type { RpcLog } from '../bundling/parseBundleLogs'

/** What a receipt needs about the operation (from the record and its UserOperationEvent). */
export type UserOperationReceiptSource = {
  userOpHash: Hex
  entryPoint: Address
  sender: Address
  nonce: bigint
  paymaster: Address | null
  success: boolean
  actualGasCost: bigint
  actualGasUsed: bigint
  revertReason: string | null
  /** [first, last] index of the operation's logs in `receipt.logs`. */
  logRange: [number, number]
  receipt: RpcTransactionReceipt
  /** Latest block number, for `confirmations`. */
  latestBlockNumber: bigint
}

/** ethers v5 `BigNumber` as JSON (what the Biconomy bundler stored and served). */
export type EthersBigNumber = { _hex: Hex; _isBigNumber: true }

export function toEthersBigNumber(value: bigint): EthersBigNumber {
  const hex = value.toString(16)
  return { _hex: `0x${hex.length % 2 ? `0${hex}` : hex}`, _isBigNumber: true }
}

const num = (hex: Hex) => Number(hexToBigInt(hex))

/**
 * The receipt of spec section 2.4 (Biconomy's shape): `success` as the string "true"/"false", nonce and gas as
 * JSON numbers, ethers-style big numbers in the transaction receipt, logs with numeric indexes.
 */
export function formatBiconomyReceipt(source: UserOperationReceiptSource) {
  const { receipt } = source
  const formatLog = (log: RpcLog) => ({
    transactionIndex: num(log.transactionIndex),
    blockNumber: num(log.blockNumber),
    transactionHash: log.transactionHash,
    address: log.address,
    topics: log.topics,
    data: log.data,
    logIndex: num(log.logIndex),
    blockHash: log.blockHash,
  })
  const blockNumber = num(receipt.blockNumber)
  return {
    userOpHash: source.userOpHash,
    entryPoint: source.entryPoint,
    sender: source.sender,
    nonce: Number(source.nonce),
    success: source.success ? 'true' : 'false',
    paymaster: source.paymaster ?? zeroAddress,
    actualGasCost: Number(source.actualGasCost),
    actualGasUsed: Number(source.actualGasUsed),
    reason: source.revertReason ?? '',
    logs: operationLogs(source).map(formatLog),
    receipt: {
      to: receipt.to,
      from: receipt.from,
      contractAddress: receipt.contractAddress ?? null,
      transactionIndex: num(receipt.transactionIndex),
      gasUsed: toEthersBigNumber(hexToBigInt(receipt.gasUsed)),
      logsBloom: receipt.logsBloom,
      blockHash: receipt.blockHash,
      transactionHash: receipt.transactionHash,
      logs: receipt.logs.map(formatLog),
      blockNumber,
      confirmations: Math.max(1, Number(source.latestBlockNumber) - blockNumber + 1),
      cumulativeGasUsed: toEthersBigNumber(hexToBigInt(receipt.cumulativeGasUsed)),
      effectiveGasPrice: toEthersBigNumber(hexToBigInt(receipt.effectiveGasPrice ?? '0x0')),
      status: num(receipt.status),
      type: num(receipt.type),
      byzantium: true,
    },
  }
}

/**
 * The ERC-4337 RPC receipt (eth-infinitism, Alto, and what viem's `getUserOperationReceipt` parses): quantities
 * as 0x-hex, `success` a boolean, the transaction receipt as the node returned it.
 */
export function formatStandardReceipt(source: UserOperationReceiptSource) {
  const hex = (value: bigint) => `0x${value.toString(16)}` as Hex
  return {
    userOpHash: source.userOpHash,
    entryPoint: source.entryPoint,
    sender: source.sender,
    nonce: hex(source.nonce),
    paymaster: source.paymaster ?? zeroAddress,
    actualGasCost: hex(source.actualGasCost),
    actualGasUsed: hex(source.actualGasUsed),
    success: source.success,
    reason: source.revertReason ?? '',
    logs: operationLogs(source),
    receipt: source.receipt,
  }
}

function operationLogs(source: UserOperationReceiptSource): RpcLog[] {
  const [first, last] = source.logRange
  return source.receipt.logs.slice(first, last + 1)
}
