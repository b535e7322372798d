import type { Hex } from 'viem'
import type { EntryPointModule } from '../../entryPoint/types'
import { RpcCode } from '../../errors/rpcCodes'
import type { Logger } from '../../log/logger'
import type { UserOperationLog } from '../../store/userOperations.repo'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import { parseBundleLogs } from '../bundling/parseBundleLogs'
import type { DecodeRevertReasons } from '../receipts/decodeRevertReasons'
import type { UserOperationRecords } from '../records/userOperationRecords'
import type { Mempool } from './mempool'

export type RecoverMempoolParameters = {
  entryPoint: EntryPointModule
  mempool: Mempool
  userOperations: UserOperationLog
  records: UserOperationRecords
  loadReceipt: (transactionHash: Hex) => Promise<RpcTransactionReceipt | null>
  log: Logger
  /** Decodes a bundle's revert reasons in place (with the contracts' ABIs) before they are recorded. */
  decodeRevertReasons: DecodeRevertReasons
}

/**
 * After a restart: operations recorded as pending or submitted are looked up on chain (mined while we were
 * down: recorded as included or failed), else put back in the mempool (validated again when bundled), or
 * dropped when their operation was not kept.
 */
export async function recoverMempool({
  entryPoint,
  mempool,
  userOperations,
  records,
  loadReceipt,
  log,
  decodeRevertReasons,
}: RecoverMempoolParameters): Promise<void> {
  for (const record of userOperations.unfinished(records.chainId)) {
    if (record.entryPoint.toLowerCase() !== entryPoint.address.toLowerCase()) continue
    try {
      if (record.transactionHash) {
        const receipt = await loadReceipt(record.transactionHash as Hex)
        if (receipt) {
          const outcomes = parseBundleLogs(receipt.logs, entryPoint.address)
          await decodeRevertReasons(outcomes)
          const outcome = outcomes.get(record.userOpHash as Hex)
          if (outcome) {
            records.recordMined(record.userOpHash as Hex, outcome, receipt, 'found mined after a restart')
            continue
          }
        }
      }
      if (!record.userOperation) {
        records.setStatus(record.userOpHash as Hex, 'dropped', (r) => {
          r.failure = { code: RpcCode.internalError, aaCode: null, reason: 'lost when the service stopped' }
        })
        continue
      }
      const op = entryPoint.fromWire(record.userOperation)
      const { factory, paymaster } = entryPoint.readEntities(op)
      const bundleGas = entryPoint.bundleGasOf(op)
      mempool.add({
        userOpHash: record.userOpHash as Hex,
        userOperation: op,
        entryPoint: entryPoint.address,
        bundleGas,
        state: 'pending',
        validated: false,
        rulesCheckedBy: 'none',
        prefund: bundleGas * op.maxFeePerGas,
        factory,
        paymaster,
        staked: { sender: false, factory: false, paymaster: false },
        storageAddresses: [],
        dappId: record.dappId,
        addedAt: Date.parse(record.createdAt) || Date.now(),
        attempts: 0,
      })
      records.setStatus(record.userOpHash as Hex, 'pending', () => {}, 'back in the mempool after a restart')
    } catch (err) {
      log.warn({ err, userOpHash: record.userOpHash }, 'could not recover a UserOperation after a restart')
    }
  }
}
