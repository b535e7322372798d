import { type Address, BaseError, type Hex, TransactionNotFoundError } from 'viem'
import type { UserOperationRecord, UserOperationStatus } from '../../../shared/api/userOperations'
import { ChainError, RpcError } from '../errors'
import { RpcCode } from '../errors/rpcCodes'
import type { UserOperationLog } from '../store/userOperations.repo'
import type { ExplainContext } from './explainContext'
import { explainFromReceipt } from './explainFromReceipt'
import { explainRejectedOperation } from './explainRejectedOperation'
import { explainTrace } from './explainTrace'
import { TraceFailedError, traceTransactionFrames } from './traceFrames'
import type { Explanation, ExplanationStatus } from './types'

const STATUS: Record<UserOperationStatus, ExplanationStatus> = {
  pending: 'pending',
  submitted: 'pending',
  included: 'mined',
  failed: 'reverted',
  dropped: 'dropped',
  replaced: 'dropped',
  rejected: 'rejected',
}

const UNTRACED_NOTE: Partial<Record<ExplanationStatus, string>> = {
  pending: 'not mined yet: its call trace is known once its bundle is',
  rejected:
    'rejected by eth_sendUserOperation, so never in a transaction: opstation_simulateUserOperation traces it as it would run now',
  dropped:
    'dropped before it was mined, so never in a transaction: opstation_simulateUserOperation traces it as it would run now',
}

/**
 * The explanation of an operation the service has seen: a mined one (included or reverted in execution) from the
 * call trace of its bundle transaction, each phase, frame, event and balance change decoded; a rejected one from a
 * simulation of the operation its record keeps (explainRejectedOperation.ts); a pending or dropped one with its
 * status and what its record knows (the reason it was refused).
 */
export async function traceUserOperation(
  context: ExplainContext & { userOperations: UserOperationLog },
  userOpHash: Hex,
): Promise<Explanation> {
  const record = await context.userOperations.find(userOpHash.toLowerCase())
  if (!record) throw new RpcError(`UserOperation ${userOpHash} is unknown to this service`, RpcCode.notFound)
  const status = STATUS[record.status]
  const explanation: Explanation = {
    userOpHash: record.userOpHash as Hex,
    entryPoint: record.entryPoint as Address,
    status,
    reason: record.failure?.reason ?? record.revertReason ?? null,
    transactionHash: (record.transactionHash as Hex | null) ?? null,
    blockNumber: record.blockNumber === null ? null : String(record.blockNumber),
    phases: [],
    calls: null,
    events: [],
    balanceChanges: [],
    gas: null,
    notes: [],
  }
  const { userOperation } = record
  if (status === 'rejected' && userOperation)
    return explainRejectedOperation(context, { ...record, userOperation })
  const untraced = UNTRACED_NOTE[status]
  if (untraced) return { ...explanation, notes: [untraced] }
  return explainMined(context, record, explanation)
}

/** The node's own words in a failed trace or read at the operation's block, on one line. */
function readNodeWords(err: ChainError | BaseError): string {
  if (err instanceof TraceFailedError) return err.nodeMessage
  return err instanceof BaseError ? err.shortMessage : (err.message.split('\n')[0] ?? '')
}

async function explainMined(
  context: ExplainContext & { userOperations: UserOperationLog },
  record: UserOperationRecord,
  explanation: Explanation,
): Promise<Explanation> {
  const entryPoint = context.entryPoints.find(record.entryPoint as Address)
  if (!entryPoint)
    return { ...explanation, notes: [`EntryPoint ${record.entryPoint} is not served on this chain now`] }
  // A mined record's operation is kept in the history of mined operations (the record may no longer hold it).
  const wire = record.userOperation ?? (await context.userOperations.findOperation(record.userOpHash))
  if (!wire || !record.transactionHash || record.blockNumber === null)
    return { ...explanation, notes: ['the operation or its transaction is no longer recorded'] }
  const userOperation = entryPoint.fromWire(wire as Record<string, unknown>)
  const blockNumber = BigInt(record.blockNumber)
  const block = await context.chain.publicClient.getBlock({ blockNumber }).catch(() => null)
  const transactionHash = record.transactionHash as Hex
  const traced = await explainTrace(context, {
    entryPoint,
    userOperation,
    userOpHash: record.userOpHash as Hex,
    trace: () => traceTransactionFrames(context.chain, transactionHash),
    beforeBlock: BigInt(Math.max(record.blockNumber - 1, 0)),
    checkedAt: block && { timestamp: block.timestamp, number: blockNumber },
  }).catch(async (err: unknown) => {
    // Only a node's failure to answer (a trace, a balance at the block before) is read here: a node without the trace
    // methods (an RpcError that says so) or a fault of the service's own is the answer's error.
    if (!(err instanceof ChainError) && !(err instanceof BaseError)) throw err
    // A transaction the chain no longer holds cannot be traced: said as such, not as the node's error.
    const held = await context.chain.publicClient.getTransaction({ hash: transactionHash }).then(
      () => true,
      (lookup: unknown) => {
        // Not answered at all (the node away): the trace's own error tells it.
        if (lookup instanceof TransactionNotFoundError) return false
        throw err
      },
    )
    // Held, but not its block's state (anvil after a restart or a compaction of its history): what the receipt tells.
    if (held) return { untraceable: readNodeWords(err) }
    return null
  })
  if (traced && 'untraceable' in traced) {
    const fromReceipt = await explainFromReceipt(context, {
      entryPoint,
      userOperation,
      userOpHash: record.userOpHash as Hex,
      transactionHash,
      logRange: record.logRange,
      traceError: traced.untraceable,
    })
    return { ...explanation, ...fromReceipt, notes: [...explanation.notes, ...fromReceipt.notes] }
  }
  if (!traced)
    return {
      ...explanation,
      notes: [
        `its bundle transaction ${transactionHash} is no longer on the chain (the embedded chain keeps its last ` +
          'blocks only; a reset or a fork drops them), and no explanation of it was kept: a reverted operation is ' +
          'explained once mined, any other when first asked while the chain holds it',
      ],
    }
  const { handleOpsReverted: _, ...parts } = traced
  return {
    ...explanation,
    ...parts,
    reason: parts.reason ?? explanation.reason,
    notes: [...explanation.notes, ...parts.notes],
  }
}
