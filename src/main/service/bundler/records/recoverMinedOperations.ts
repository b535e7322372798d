import { type Hex, hexToNumber } from 'viem'
import { requestRpc } from '../../chain/node/requestRpc'
import type { Chain } from '../../chain/types'
import type { BundleTransaction, UserOperationBase } from '../../entryPoint/types'
import type { Logger } from '../../log/logger'
import type { UserOperationLog } from '../../store/userOperations.repo'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import { parseBundleLogs, type RpcLog, USER_OPERATION_EVENT } from '../bundling/parseBundleLogs'
import type { DecodeRevertReasons } from '../receipts/decodeRevertReasons'
import type { UserOperationRecords } from './userOperationRecords'

export type RecoverMinedOperationsParameters = {
  chain: Chain
  userOperations: UserOperationLog
  records: UserOperationRecords
  loadReceipt: (transactionHash: Hex) => Promise<RpcTransactionReceipt | null>
  log: Logger
  /** Decodes a bundle's revert reasons in place (with the contracts' ABIs) before they are recorded. */
  decodeRevertReasons: DecodeRevertReasons
  /** Blocks looked at, at most (the newest). */
  maxBlocks?: number
}

const FINISHED = new Set(['included', 'failed'])

/**
 * After a restart: operations our executor's bundles mined after the last block the records know of, whose
 * record never reached the disk (records are written in batches) or still says pending or submitted, are
 * recorded from the chain (UserOperationEvent logs, the operations decoded from the bundle transaction), so an
 * operation that was acknowledged and mined always has its receipt. Returns how many records it wrote.
 */
export async function recoverMinedOperations({
  chain,
  userOperations,
  records,
  loadReceipt,
  log,
  decodeRevertReasons,
  maxBlocks = 10_000,
}: RecoverMinedOperationsParameters): Promise<number> {
  const entryPoint = records.entryPoint
  const latest = hexToNumber(await requestRpc<Hex>(chain.publicClient, 'eth_blockNumber'))
  const known = userOperations.lastMinedBlock(records.chainId)
  const fromBlock = Math.max(known === null ? 0 : known + 1, latest - maxBlocks + 1, 0)
  if (fromBlock > latest) return 0
  const logs = await requestRpc<RpcLog[]>(chain.publicClient, 'eth_getLogs', [
    {
      address: entryPoint.address,
      topics: [USER_OPERATION_EVENT],
      fromBlock: `0x${fromBlock.toString(16)}`,
      toBlock: `0x${latest.toString(16)}`,
    },
  ])
  const transactions = new Set<Hex>()
  for (const event of logs) {
    const record = userOperations.get(event.topics[1] ?? '')
    if (!record || !FINISHED.has(record.status)) transactions.add(event.transactionHash)
  }
  let recovered = 0
  for (const transactionHash of transactions) {
    const tx = await requestRpc<(BundleTransaction & { from: Hex }) | null>(
      chain.publicClient,
      'eth_getTransactionByHash',
      [transactionHash],
    )
    if (!tx || tx.from.toLowerCase() !== chain.executor.address.toLowerCase()) continue
    const receipt = await loadReceipt(transactionHash)
    if (!receipt) continue
    const outcomes = parseBundleLogs(receipt.logs, entryPoint.address)
    await decodeRevertReasons(outcomes)
    let ops: readonly UserOperationBase[]
    try {
      ops = await entryPoint.decodeBundle(chain, tx)
    } catch {
      continue
    }
    for (const op of ops) {
      const userOpHash = entryPoint.computeUserOpHash(op, chain.chainId).toLowerCase() as Hex
      const outcome = outcomes.get(userOpHash)
      const record = userOperations.get(userOpHash)
      if (!outcome || (record && FINISHED.has(record.status))) continue
      if (!record) {
        records.addRecord(op, userOpHash, 'submitted', {
          dappId: null,
          receiptFormat: 'standard',
          note: 'recorded from the chain after a restart (the service stopped before writing it)',
        })
      }
      records.recordMined(userOpHash, outcome, receipt, 'found mined after a restart')
      recovered++
    }
  }
  if (recovered > 0) log.warn({ recovered }, 'UserOperations mined before a restart recorded from the chain')
  return recovered
}
