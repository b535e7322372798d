import type { Address, Hex } from 'viem'
import {
  isUnfinished,
  type UserOperationRecord,
  type UserOperationStatus,
} from '../../../../shared/api/userOperations'
import { nameAccountByDelegate, nameAccountDeployedBy } from '../../chain/accountZoo/nameAccount'
import { checksumAddress } from '../../chain/checksumAddress'
import { readAaCode } from '../../entryPoint/errors'
import type { EntryPointModule, UserOperationBase } from '../../entryPoint/types'
import { AppError } from '../../errors'
import type { EventBus } from '../../events'
import { decodeCallData } from '../../policy/decodeCallData'
import type { UserOperationLog } from '../../store/userOperations.repo'
import type { ReceiptFormat } from '../bundlerOptions'
import type { RpcTransactionReceipt } from '../bundling/createBundleSender'
import type { UserOperationOutcome } from '../bundling/parseBundleLogs'

export type UserOperationRecords = {
  /** The chain and the EntryPoint whose operations these records are. */
  readonly chainId: number
  readonly entryPoint: EntryPointModule
  /**
   * An operation was mined: its record takes the outcome (included or failed, gas, transaction, block, logs), and
   * the history keeps the bundle's receipt and the operation as sent (the chain keeps them for its recent blocks only).
   */
  recordMined: (
    userOpHash: Hex,
    outcome: UserOperationOutcome,
    receipt: RpcTransactionReceipt,
    note?: string,
  ) => void
  /** Sets a record's status (appended to its timeline with `note`), applies `change`, emits the event. */
  setStatus: (
    userOpHash: Hex,
    status: UserOperationStatus,
    change?: (r: UserOperationRecord) => void,
    note?: string,
  ) => void
  /** Records an operation the bundler saw for the first time (or again, under the same hash). */
  addRecord: (
    op: UserOperationBase,
    userOpHash: Hex,
    status: UserOperationStatus,
    extra: {
      dappId: string | null
      receiptFormat: ReceiptFormat
      failure?: UserOperationRecord['failure']
      note?: string
    },
  ) => void
  /** Records a rejected operation with the error's code, AAxx reason and broken rules. */
  recordRejection: (
    op: UserOperationBase,
    userOpHash: Hex,
    err: unknown,
    dappId: string | null,
    receiptFormat: ReceiptFormat,
  ) => void
}

export type CreateUserOperationRecordsParameters = {
  userOperations: UserOperationLog
  /** The chain the bundler sends to: every record it adds carries it. */
  chainId: number
  entryPoint: EntryPointModule
  events?: EventBus
  /** A rejection is not recorded while an operation with the same hash is pending (a duplicate send). */
  isPending: (userOpHash: Hex) => boolean
  /** An operation's record reached a final status (mined, failed, dropped, replaced). */
  onFinished?: (userOpHash: Hex) => void
}

/** The record of every operation the bundler handles (its timeline, failure and outcome) and its events. */
export function createUserOperationRecords({
  userOperations,
  chainId,
  entryPoint,
  events,
  isPending,
  onFinished,
}: CreateUserOperationRecordsParameters): UserOperationRecords {
  const emit = (record: UserOperationRecord | undefined) => {
    if (!record || !events) return
    events.emit('userOperation.changed', {
      userOpHash: record.userOpHash,
      status: record.status,
      sender: record.sender,
      dappId: record.dappId,
      transactionHash: record.transactionHash,
      reason: record.failure?.reason ?? record.revertReason ?? undefined,
    })
  }

  const setStatus: UserOperationRecords['setStatus'] = (userOpHash, status, change = () => {}, note) => {
    emit(
      userOperations.change(
        userOpHash,
        (r) => {
          r.status = status
          change(r)
        },
        { status, note },
      ),
    )
    if (!isUnfinished(status)) onFinished?.(userOpHash)
  }

  const addRecord: UserOperationRecords['addRecord'] = (op, userOpHash, status, extra) => {
    const { factory, paymaster } = entryPoint.readEntities(op)
    const wire = entryPoint.toWire(op)
    const decimalOf = (value: unknown) => (typeof value === 'string' ? BigInt(value).toString() : undefined)
    // decodeCallData reads the initCode only for being non-empty (a deploy-only operation).
    const decoded = decodeCallData(op.callData, entryPoint.deploysAccount(op) ? '0x00' : '0x')
    const eip7702Delegate = (wire.eip7702Auth as { address?: Address } | undefined)?.address ?? null
    // An operation that neither deploys nor delegates its account names no known type by itself: the console names it
    // from the chain when it shows the record (console/nameRecordAccounts.ts), not every send at two node calls or more.
    const account = nameAccountOf(wire, factory, eip7702Delegate)
    const record = userOperations.add({
      userOpHash,
      chainId,
      entryPoint: entryPoint.address,
      sender: op.sender,
      ...(account ? { account } : {}),
      nonce: op.nonce.toString(),
      status,
      userOperation: wire as UserOperationRecord['userOperation'],
      eip7702Delegate,
      factory: factory && checksumAddress(factory),
      paymaster: paymaster && checksumAddress(paymaster),
      dappId: extra.dappId,
      calls:
        decoded.kind === 'calls'
          ? decoded.calls
              .slice(0, 16)
              .map((c) => ({ to: c.to, value: c.value.toString(), selector: c.selector }))
          : null,
      gas: {
        callGasLimit: op.callGasLimit.toString(),
        verificationGasLimit: op.verificationGasLimit.toString(),
        preVerificationGas: op.preVerificationGas.toString(),
        maxFeePerGas: op.maxFeePerGas.toString(),
        maxPriorityFeePerGas: op.maxPriorityFeePerGas.toString(),
        ...(wire.paymasterVerificationGasLimit !== undefined
          ? {
              paymasterVerificationGasLimit: decimalOf(wire.paymasterVerificationGasLimit),
              paymasterPostOpGasLimit: decimalOf(wire.paymasterPostOpGasLimit),
            }
          : {}),
      },
      actualGasUsed: null,
      actualGasCost: null,
      transactionHash: null,
      blockNumber: null,
      blockHash: null,
      logRange: null,
      revertReason: null,
      failure: extra.failure ?? null,
      receiptFormat: extra.receiptFormat,
      timeline: [{ status, at: new Date().toISOString(), ...(extra.note ? { note: extra.note } : {}) }],
    })
    emit(record)
  }

  return {
    chainId,
    entryPoint,
    recordMined(userOpHash, outcome, receipt, note) {
      userOperations.keepMined(userOpHash, receipt)
      setStatus(
        userOpHash,
        outcome.success ? 'included' : 'failed',
        (r) => applyOutcome(r, outcome, receipt),
        note,
      )
    },
    setStatus,
    addRecord,
    recordRejection(op, userOpHash, err, dappId, receiptFormat) {
      if (!(err instanceof AppError)) return
      const data = (err.data ?? {}) as { rules?: string[] }
      const failure = {
        code: err.rpcCode,
        aaCode: readAaCode(err.shortMessage),
        reason: err.shortMessage,
        ...(data.rules ? { rules: data.rules } : {}),
      }
      if (isPending(userOpHash)) return
      addRecord(op, userOpHash, 'rejected', { dappId, receiptFormat, failure, note: err.shortMessage })
    },
  }
}

/** The account type an operation names by itself: the factory it deploys with, or the contract it delegates to. */
function nameAccountOf(wire: Record<string, unknown>, factory: Address | null, delegate: Address | null) {
  return delegate ? nameAccountByDelegate(delegate) : nameAccountDeployedBy(wire, factory)
}

/** Writes a mined operation's outcome (gas, transaction, block, logs, revert reason) into its record. */
export function applyOutcome(
  r: UserOperationRecord,
  outcome: UserOperationOutcome,
  receipt: RpcTransactionReceipt,
): void {
  r.actualGasUsed = outcome.actualGasUsed.toString()
  r.actualGasCost = outcome.actualGasCost.toString()
  r.transactionHash = receipt.transactionHash
  r.blockHash = receipt.blockHash
  r.blockNumber = Number(BigInt(receipt.blockNumber))
  r.logRange = outcome.logRange
  r.revertReason = outcome.revertReason
  r.revertData = outcome.revert?.data ?? null
  r.userOperation = null
}
