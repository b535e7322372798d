import type { Address, Hex } from 'viem'
import { isUnfinished, type UserOperationRecord } from '../../../../shared/api/userOperations'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { BundleTransaction, EntryPoints, UserOperationBase } from '../../entryPoint/types'
import { RpcError } from '../../errors'
import { RpcCode } from '../../errors/rpcCodes'
import type { UserOperationLog } from '../../store/userOperations.repo'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import type { GasPrices } from '../gasPrices'
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
  /** Forgets the receipts and operations kept in memory (the chain went back: they may be gone). */
  forgetCached: () => void
  /**
   * A transaction's receipt: remembered, else read from the node, else (a bundle the chain no longer holds) from the
   * history of mined operations; null when not mined.
   */
  loadReceipt: (transactionHash: Hex) => Promise<RpcTransactionReceipt | null>
  /**
   * Mined records whose bundle the history lacks (operations mined before it was kept: an older data folder) are
   * kept there from the chain, while the chain still holds their transactions. Returns how many.
   */
  keepMissingHistory: (records: readonly UserOperationRecord[]) => Promise<number>
}

export type CreateUserOperationQueriesParameters = {
  chain: Chain
  /** Each record's operation is read and written in the form of its EntryPoint's version. */
  entryPoints: EntryPoints
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
  entryPoints,
  userOperations,
  gasPrices,
  waitForMining,
}: CreateUserOperationQueriesParameters): UserOperationQueries {
  const receipts = new Map<Hex, RpcTransactionReceipt>()
  const minedOperations = new Map<Hex, UserOperationBase>()

  const rememberReceipt = (receipt: RpcTransactionReceipt) => {
    receipts.set(receipt.transactionHash, receipt)
    if (receipts.size > CACHE_SIZE) receipts.delete(receipts.keys().next().value as Hex)
  }

  const loadReceipt = async (transactionHash: Hex) => {
    const cached = receipts.get(transactionHash)
    if (cached) return cached
    const receipt =
      (await requestRpc<RpcTransactionReceipt | null>(chain.publicClient, 'eth_getTransactionReceipt', [
        transactionHash,
      ])) ?? ((await userOperations.findReceipt(transactionHash)) as RpcTransactionReceipt | undefined)
    if (receipt?.blockNumber) rememberReceipt(receipt)
    return receipt ?? null
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

  /**
   * The operation as sent: kept in its record until mined, then in the history of mined operations, else read from
   * the bundle transaction.
   */
  const readOperation = async (record: UserOperationRecord): Promise<UserOperationBase | null> => {
    const entryPoint = entryPoints.find(record.entryPoint as Address)
    if (!entryPoint) return null
    if (record.userOperation) return entryPoint.fromWire(record.userOperation)
    const cached = minedOperations.get(record.userOpHash as Hex)
    if (cached) return cached
    const kept = await userOperations.findOperation(record.userOpHash)
    if (kept) return entryPoint.fromWire(kept as NonNullable<UserOperationRecord['userOperation']>)
    if (!record.transactionHash) return null
    const tx = await requestRpc<BundleTransaction | null>(chain.publicClient, 'eth_getTransactionByHash', [
      record.transactionHash,
    ])
    if (!tx) return null
    const ops = await entryPoint.decodeBundle(chain, tx).catch(() => [])
    const op = ops.find(
      (o) => entryPoint.computeUserOpHash(o, chain.chainId).toLowerCase() === record.userOpHash.toLowerCase(),
    )
    if (op) minedOperations.set(record.userOpHash as Hex, op)
    if (minedOperations.size > CACHE_SIZE) minedOperations.delete(minedOperations.keys().next().value as Hex)
    return op ?? null
  }

  return {
    rememberReceipt,
    forgetCached() {
      receipts.clear()
      minedOperations.clear()
    },
    loadReceipt,

    async keepMissingHistory(records) {
      let kept = 0
      for (const record of records) {
        if ((record.status !== 'included' && record.status !== 'failed') || !record.transactionHash) continue
        if (await userOperations.hasMined(record.userOpHash)) continue
        const receipt = await loadReceipt(record.transactionHash as Hex)
        if (!receipt) continue
        const op = await readOperation(record).catch(() => null)
        const entryPoint = entryPoints.find(record.entryPoint as Address)
        userOperations.keepMined(
          record.userOpHash,
          receipt,
          op && entryPoint ? entryPoint.toWire(op) : undefined,
        )
        kept++
      }
      return kept
    },

    async getUserOperationReceipt(userOpHash) {
      let record = await userOperations.find(userOpHash)
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
      const record = await userOperations.find(userOpHash)
      if (!record) return null
      // In the mempool (or in a bundle not mined yet): the operation without a block, as eth-infinitism's
      // bundler answers. Mined: with its transaction and block. Rejected, dropped or replaced: null.
      const pending = isUnfinished(record.status)
      const mined = (record.status === 'included' || record.status === 'failed') && record.transactionHash
      if (!pending && !mined) return null
      const op = await readOperation(record)
      const entryPoint = entryPoints.find(record.entryPoint as Address)
      if (!op || !entryPoint) return null
      const wire = entryPoint.toWire(op)
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
      const record = await userOperations.find(userOpHash)
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
