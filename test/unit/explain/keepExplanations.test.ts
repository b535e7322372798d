import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ExplainContext } from '../../../src/main/service/explain/explainContext'
import { createExplanationKeeper } from '../../../src/main/service/explain/keepExplanations'
import type { Explanation } from '../../../src/main/service/explain/types'
import type { UserOperationLog } from '../../../src/main/service/store/userOperations.repo'
import type { UserOperationRecord } from '../../../src/shared/api/userOperations'

const HASH = `0x${'ab'.repeat(32)}` as Hex
const REFUSED = 'AA23 reverted in BadSignatureAccount.validateUserOp(…) at 0x…: BadSignature()'

/** The explanation kept when the operation was rejected: its simulation's phases. */
const keptRejection = {
  userOpHash: HASH,
  entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  status: 'rejected',
  reason: REFUSED,
  transactionHash: null,
  blockNumber: null,
  phases: [{ name: 'account-validation', outcome: 'reverted' }],
  calls: { to: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', calls: [] },
  events: [],
  balanceChanges: [],
  gas: null,
  notes: [],
} as unknown as Explanation

/**
 * A keeper over one record (no operation kept in it, so nothing is simulated or traced again: a record told anew
 * answers from the record alone) and the explanation kept for it.
 */
function keeperOf(record: Partial<UserOperationRecord>) {
  const full = {
    userOpHash: HASH,
    entryPoint: keptRejection.entryPoint,
    userOperation: null,
    transactionHash: null,
    blockNumber: null,
    revertReason: null,
    failure: null,
    ...record,
  } as UserOperationRecord
  const userOperations = {
    get: () => full,
    find: async () => full,
    findExplanation: async () => keptRejection,
    keepExplanation: () => {},
  } as unknown as UserOperationLog
  return createExplanationKeeper({
    context: { userOperations } as unknown as ExplainContext & { userOperations: UserOperationLog },
  })
}

describe("a rejected operation's kept explanation", () => {
  it('answers while its record is rejected for the same reason', async () => {
    const keeper = keeperOf({
      status: 'rejected',
      failure: { code: -32500, aaCode: 'AA23', reason: REFUSED },
    })
    expect(await keeper.explain(HASH)).toBe(keptRejection)
  })

  it('no longer answers once the same operation was admitted: the record is told as it is now', async () => {
    const keeper = keeperOf({ status: 'pending' })
    const explanation = await keeper.explain(HASH)
    expect(explanation).toMatchObject({ status: 'pending', phases: [] })
  })

  it('no longer answers once the operation was refused again for another reason', async () => {
    const reason = 'AA25 invalid account nonce'
    const keeper = keeperOf({ status: 'rejected', failure: { code: -32500, aaCode: 'AA25', reason } })
    const explanation = await keeper.explain(HASH)
    expect(explanation).toMatchObject({ status: 'rejected', reason, phases: [] })
    expect(explanation).not.toBe(keptRejection)
  })
})
