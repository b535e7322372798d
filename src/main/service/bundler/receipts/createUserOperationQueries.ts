import { type Address, decodeFunctionData, type Hex } from 'viem'
import { entryPointAbi } from '../../chain/abis/entryPoint'
import { computeUserOpHash } from '../../chain/entryPoint/getUserOpHash'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain, UserOperationV06 } from '../../chain/types'
import { RpcError } from '../../errors'
import { RpcCode } from '../../jsonrpc/codes'
import { isUnfinished, type UserOperationRecord } from '../../store/userOperationRecord'
import type { UserOperationLog } from '../../store/userOperations.repo'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import type { GasPrices } from '../gasPrices'
import { fromWireUserOperation, toWireUserOperation, type WireUserOperation } from '../userOperationSchema'
import {
  formatBiconomyReceipt,
  formatStandardReceipt,
  type UserOperationReceiptSource,
} from './formatUserOperationReceipt'

export type UserOperationStatusResult =
  | { state: 'BUNDLER_MEMPOOL' }
  | { state: 'SUBMITTED'; transactionHash: Hex }
  | { state: 'CONFIRMED'; message: string; transactionHash: Hex; userOperationReceipt: unknown }
  | { state: 'FAILED'; message: string; transactionHash: Hex; userOperationReceipt: unknown }
  | { state: 'DROPPED_FROM_BUNDLER_MEMPOOL'; message: string }

export type UserOperationQueries = {
  /**
   * eth_getUserOperationReceipt: null until mined. A query on an operation about to be mined may wait for it
   * (`waitForMining`), so that a client's first poll after sending finds the receipt.
   */
  getUserOperationReceipt: (userOpHash: Hex) => Promise<unknown | null>
  /**
   * eth_getUserOperationByHash: the operation with its transaction and block once mined, with them null while
   * pending; null for an unknown, rejected, dropped or replaced operation.
   */
  getUserOperationByHash: (userOpHash: Hex) => Promise<unknown | null>
  /** biconomy_getUserOperationStatus. */
  getUserOperationStatus: (userOpHash: Hex) => Promise<UserOperationStatusResult>
  /** Keeps a bundle's receipt (our own bundles are read without a node call); the cached block is stale. */
  rememberReceipt: (receipt: RpcTransactionReceipt) => void
  /** A transaction's receipt: remembered, else read from the node (null when not mined). */
  loadReceipt: (transactionHash: Hex) => Promise<RpcTransactionReceipt | null>
}

export type CreateUserOperationQueriesParameters = {
  chain: Chain
  userOperations: UserOperationLog
  gasPrices: GasPrices
  /**
   * Called for a receipt query on an operation that is not mined yet: resolves once it may be worth reading
   * the record again (it finished, or the caller has waited long enough). Default: at once.
   */
  waitForMining?: (record: UserOperationRecord) => Promise<void>
}

const CACHE_SIZE = 512

/** What a client can ask about an operation it sent: its receipt, the operation itself, its status. */
export function createUserOperationQueries({
  chain,
  userOperations,
  gasPrices,
  waitForMining,
}: CreateUserOperationQueriesParameters): UserOperationQueries {
  const entryPoint = chain.addresses.entryPoint
  const receipts = new Map<Hex, RpcTransactionReceipt>()
  const minedOperations = new Map<Hex, UserOperationV06>()

  const rememberReceipt = (receipt: RpcTransactionReceipt) => {
    receipts.set(receipt.transactionHash, receipt)
    if (receipts.size > CACHE_SIZE) receipts.delete(receipts.keys().next().value as Hex)
  }

  const loadReceipt = async (transactionHash: Hex) => {
    const cached = receipts.get(transactionHash)
    if (cached) return cached
    const receipt = await requestRpc<RpcTransactionReceipt | null>(
      chain.publicClient,
      'eth_getTransactionReceipt',
      [transactionHash],
    )
    if (receipt?.blockNumber) rememberReceipt(receipt)
    return receipt
  }

  const receiptSource = async (record: UserOperationRecord): Promise<UserOperationReceiptSource | null> => {
    if (
      (record.status !== 'included' && record.status !== 'failed') ||
      !record.transactionHash ||
      !record.logRange
    )
      return null
    const receipt = await loadReceipt(record.transactionHash as Hex)
    if (!receipt) return null
    const latest = await gasPrices.latestBlock()
    const mined = BigInt(receipt.blockNumber)
    return {
      userOpHash: record.userOpHash as Hex,
      entryPoint: record.entryPoint as Address,
      sender: record.sender as Address,
      nonce: BigInt(record.nonce),
      paymaster: record.paymaster as Address | null,
      success: record.status === 'included',
      actualGasCost: BigInt(record.actualGasCost ?? '0'),
      actualGasUsed: BigInt(record.actualGasUsed ?? '0'),
      revertReason: record.revertReason,
      logRange: record.logRange,
      receipt,
      latestBlockNumber: latest.number > mined ? latest.number : mined,
    }
  }

  /** The operation as sent: kept in its record until mined, then read from the bundle transaction. */
  const readOperation = async (record: UserOperationRecord): Promise<UserOperationV06 | null> => {
    if (record.userOperation) return fromWireUserOperation(record.userOperation as WireUserOperation)
    const cached = minedOperations.get(record.userOpHash as Hex)
    if (cached) return cached
    if (!record.transactionHash) return null
    const tx = await requestRpc<{ input: Hex } | null>(chain.publicClient, 'eth_getTransactionByHash', [
      record.transactionHash,
    ])
    if (!tx) return null
    const { args } = decodeFunctionData({ abi: entryPointAbi, data: tx.input })
    const ops = (args?.[0] ?? []) as readonly UserOperationV06[]
    const op = ops.find((o) => computeUserOpHash(o, chain.chainId, entryPoint) === record.userOpHash)
    if (op) minedOperations.set(record.userOpHash as Hex, op)
    if (minedOperations.size > CACHE_SIZE) minedOperations.delete(minedOperations.keys().next().value as Hex)
    return op ?? null
  }

  return {
    rememberReceipt,
    loadReceipt,

    async getUserOperationReceipt(userOpHash) {
      let record = userOperations.get(userOpHash)
      if (!record) return null
      if (waitForMining && isUnfinished(record.status)) {
        await waitForMining(record)
        record = userOperations.get(userOpHash)
        if (!record) return null
      }
      const source = await receiptSource(record)
      if (!source) return null
      return record.receiptFormat === 'biconomy'
        ? formatBiconomyReceipt(source)
        : formatStandardReceipt(source)
    },

    async getUserOperationByHash(userOpHash) {
      const record = userOperations.get(userOpHash)
      if (!record) return null
      // In the mempool (or in a bundle not mined yet): the operation without a block, as eth-infinitism's
      // bundler answers. Mined: with its transaction and block. Rejected, dropped or replaced: null.
      const pending = isUnfinished(record.status)
      const mined = (record.status === 'included' || record.status === 'failed') && record.transactionHash
      if (!pending && !mined) return null
      const op = await readOperation(record)
      if (!op) return null
      const wire = toWireUserOperation(op)
      return {
        ...wire,
        userOperation: wire,
        entryPoint: record.entryPoint,
        transactionHash: mined ? record.transactionHash : null,
        blockHash: mined ? record.blockHash : null,
        blockNumber: mined ? `0x${(record.blockNumber ?? 0).toString(16)}` : null,
      }
    },

    async getUserOperationStatus(userOpHash) {
      const record = userOperations.get(userOpHash)
      if (!record || record.status === 'rejected') {
        throw new RpcError(
          `UserOpHash: ${userOpHash} not found for chainId: ${chain.chainId}`,
          RpcCode.notFound,
          {
            httpStatus: 200,
          },
        )
      }
      switch (record.status) {
        case 'pending':
          return { state: 'BUNDLER_MEMPOOL' }
        case 'submitted':
          return { state: 'SUBMITTED', transactionHash: record.transactionHash as Hex }
        case 'included':
        case 'failed': {
          const source = await receiptSource(record)
          const userOperationReceipt = source ? formatBiconomyReceipt(source) : null
          return record.status === 'included'
            ? {
                state: 'CONFIRMED',
                message: 'Transaction is confirmed',
                transactionHash: record.transactionHash as Hex,
                userOperationReceipt,
              }
            : {
                state: 'FAILED',
                message: `UserOperation reverted during execution${record.revertReason ? `: ${record.revertReason}` : ''}`,
                transactionHash: record.transactionHash as Hex,
                userOperationReceipt,
              }
        }
        default:
          return { state: 'DROPPED_FROM_BUNDLER_MEMPOOL', message: record.failure?.reason ?? record.status }
      }
    },
  }
}
