import type { UserOperationRecord } from '../../../src/shared/api/userOperations'

/** A 32-byte hash: `prefix` then `i` in hex. */
export const hash = (prefix: string, i: number) =>
  `0x${prefix}${i.toString(16).padStart(64 - prefix.length, '0')}`

/** A finished (mined) record numbered `i`: seq i, userOpHash hash('a', i), mined by transaction `tx`. */
export function makeUserOperationRecord(i: number, tx = hash('e', i)): UserOperationRecord {
  return {
    seq: i,
    userOpHash: hash('a', i),
    chainId: 31337,
    entryPoint: '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
    sender: `0x${'b'.repeat(40)}`,
    nonce: String(i),
    status: 'included',
    userOperation: null,
    factory: null,
    paymaster: null,
    dappId: null,
    calls: null,
    gas: {
      callGasLimit: '1',
      verificationGasLimit: '2',
      preVerificationGas: '3',
      maxFeePerGas: '4',
      maxPriorityFeePerGas: '5',
    },
    actualGasUsed: '10',
    actualGasCost: '20',
    transactionHash: tx,
    blockNumber: i,
    blockHash: hash('f', i),
    logRange: [0, 0],
    revertReason: null,
    failure: null,
    receiptFormat: 'standard',
    timeline: [{ status: 'included', at: '2026-01-01T00:00:00.000Z' }],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  }
}

/** Record `i` as the bundler adds it to the log: without the seq and times the log gives it. */
export function makeRecordToAdd(i: number, tx?: string) {
  const { seq: _seq, createdAt: _c, updatedAt: _u, ...record } = makeUserOperationRecord(i, tx)
  return record
}
