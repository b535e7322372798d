import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { PhaseGasLimit, UserOperationPhase } from '../../../src/main/service/entryPoint/types'
import type { ContractBook } from '../../../src/main/service/explain/contractBook'
import { explainPhases } from '../../../src/main/service/explain/explainPhases'
import type { TracedFrame } from '../../../src/main/service/explain/types'

const account = '0x00000000000000000000000000000000000000aa'
const unknown = '0x00000000000000000000000000000000000000bb'
const book: ContractBook = {
  lookup: (address) => (address?.toLowerCase() === account ? { name: 'TestAccount', abi: [] } : undefined),
  errors: [],
  events: [],
}
const limit = (field: string, value: bigint): PhaseGasLimit => ({ field, value })
const limits: Record<UserOperationPhase, PhaseGasLimit> = {
  deployment: limit('verificationGasLimit', 100_000n),
  'account-validation': limit('verificationGasLimit', 100_000n),
  'paymaster-validation': limit('paymasterVerificationGasLimit', 50_000n),
  execution: limit('callGasLimit', 80_000n),
  postOp: limit('paymasterPostOpGasLimit', 40_000n),
}
const frame = (to: string, gasUsed: bigint, fields: Partial<TracedFrame> = {}): TracedFrame => ({
  type: 'CALL',
  from: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  to: to as TracedFrame['to'],
  gas: '0x0',
  gasUsed: `0x${gasUsed.toString(16)}`,
  input: '0x19822f7c',
  ...fields,
})

describe('explainPhases', () => {
  it("gives each phase its gas against the operation's limit, with the headroom left", () => {
    const [phase] = explainPhases({ 'account-validation': frame(account, 25_000n) }, limits, book)
    expect(phase).toEqual({
      name: 'account-validation',
      gasUsed: '25000',
      gasLimit: '100000',
      limitField: 'verificationGasLimit',
      headroomPercent: 75,
      outcome: 'ok',
    })
  })

  it('an account validation that runs out of gas names verificationGasLimit to raise', () => {
    const [phase] = explainPhases(
      { 'account-validation': frame(account, 100_000n, { error: 'out of gas' }) },
      limits,
      book,
    )
    expect(phase).toMatchObject({
      outcome: 'out of gas',
      headroomPercent: 0,
      error: {
        contract: 'TestAccount',
        function: null,
        raise: 'verificationGasLimit',
        reason: `out of gas in TestAccount: raise verificationGasLimit (100000 given)`,
      },
    })
  })

  it('a revert in an unknown contract names its address and shows the raw data', () => {
    const [phase] = explainPhases(
      { execution: frame(unknown, 10_000n, { error: 'execution reverted', output: '0xdeadbeef' }) },
      limits,
      book,
    )
    expect(phase?.error).toMatchObject({
      address: getAddress(unknown),
      contract: null,
      function: null,
      reason: 'unknown error 0xdeadbeef (4 bytes of revert data)',
    })
  })

  it('lists the phases the operation reached in the EntryPoint order', () => {
    const phases = explainPhases(
      { postOp: frame(unknown, 1n), execution: frame(account, 1n), deployment: frame(unknown, 1n) },
      limits,
      book,
    )
    expect(phases.map((p) => p.name)).toEqual(['deployment', 'execution', 'postOp'])
  })
})
