import { describe, expect, it } from 'vitest'
import type { Explanation } from '../../../src/shared/api/explanation'
import { formatExplanation } from '../../../src/shared/formatExplanation'

const LEDGER = '0x46F14ECB121A3CC95206809530D9c048CAc929fa'

const explanation: Explanation = {
  userOpHash: `0x${'52'.repeat(32)}`,
  entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  status: 'reverted',
  reason: `execution reverted in Ledger.debit(address,uint256) at ${LEDGER}: InsufficientBalance(5, 7)`,
  transactionHash: `0x${'f3'.repeat(32)}`,
  blockNumber: '64',
  phases: [
    {
      name: 'account-validation',
      gasUsed: '34169',
      gasLimit: '600000',
      limitField: 'verificationGasLimit',
      headroomPercent: 94.3,
      outcome: 'ok',
      signature: 'valid',
      validity: { unit: 'block', validAfter: '1', validUntil: '900', checkedAt: '64', state: 'valid' },
    },
    {
      name: 'execution',
      gasUsed: '10094',
      gasLimit: '200000',
      limitField: 'callGasLimit',
      headroomPercent: 94.9,
      outcome: 'reverted',
      error: {
        address: LEDGER,
        contract: 'Ledger',
        function: 'debit(address,uint256)',
        reason: 'InsufficientBalance(5, 7)',
        revert: { kind: 'custom-error', text: 'InsufficientBalance(5, 7)', data: '0xcf479181' },
      },
    },
  ],
  calls: {
    type: 'CALL',
    from: '0x0000000000000000000000000000000000000001',
    to: LEDGER,
    contract: 'Ledger',
    function: 'debit(address,uint256)',
    value: '0',
    gas: '5000',
    gasUsed: '2603',
    error: 'execution reverted',
    reason: { kind: 'custom-error', text: 'InsufficientBalance(5, 7)', data: '0xcf479181' },
    calls: [],
  },
  events: [],
  balanceChanges: [],
  gas: {
    limits: { verificationGasLimit: '600000', callGasLimit: '200000', preVerificationGas: '100000' },
    limitTotal: '900000',
    actualGasUsed: '357544',
    actualGasCost: '1',
    usedPercent: 39.7,
    preVerificationGas: {
      carried: '100000',
      calculated: '21140',
      calculator: 'calldata and overheads',
      parts: [
        { name: 'transaction base cost (a bundle of one)', gas: 21_000 },
        { name: 'calldata: its offset word in the bundle', gas: 140 },
      ],
    },
  },
  authorization: {
    address: '0x0000000000000000000000000000000000000007',
    chainId: '31337',
    nonce: '5',
    signer: '0x0000000000000000000000000000000000000008',
    applied: false,
    reasons: ["it is for nonce 5, the sender's nonce was 0"],
    delegatedBefore: null,
  },
  notes: ['an undecoded call input is cut to its first 1024 bytes'],
}

describe('formatExplanation', () => {
  it('prints the status, reason, phases with their gas, verdicts and failing frame, gas parts, calls and notes', () => {
    expect(formatExplanation(explanation).split('\n')).toEqual([
      `UserOperation 0x${'52'.repeat(32)}: reverted (EntryPoint 0x0000000071727De22E5E9d8BAf0edAc6f37da032, transaction 0x${'f3'.repeat(32)}, block 64)`,
      `reason: execution reverted in Ledger.debit(address,uint256) at ${LEDGER}: InsufficientBalance(5, 7)`,
      'phases:',
      '  account-validation    ok         34,169 / 600,000 verificationGasLimit (94.3 % left)',
      '    signature valid; valid in blocks 1 to 900 (valid at 64)',
      '  execution             reverted   10,094 / 200,000 callGasLimit (94.9 % left)',
      `    at Ledger.debit(address,uint256) ${LEDGER}: InsufficientBalance(5, 7)`,
      "EIP-7702 authorization to 0x0000000000000000000000000000000000000007: not applied (it is for nonce 5, the sender's nonce was 0)",
      'gas: 357,544 used of 900,000 carried (39.7 %); preVerificationGas 100,000 carried, 21,140 calculated (calldata and overheads):',
      '  transaction base cost (a bundle of one): 21,000',
      '  calldata: its offset word in the bundle: 140',
      'calls:',
      '  Ledger.debit(address,uint256) (gas 2,603) ✗ InsufficientBalance(5, 7)',
      'notes:',
      '  - an undecoded call input is cut to its first 1024 bytes',
    ])
  })

  it('prints an unmined operation with no trace as its status, reason and notes only', () => {
    const rejected: Explanation = {
      ...explanation,
      status: 'rejected',
      reason: 'AA23 reverted: BadSignature()',
      transactionHash: null,
      blockNumber: null,
      phases: [],
      calls: null,
      gas: null,
      authorization: undefined,
      notes: ['rejected by eth_sendUserOperation, so never in a transaction'],
    }
    expect(formatExplanation(rejected)).toBe(
      [
        `UserOperation 0x${'52'.repeat(32)}: rejected (EntryPoint 0x0000000071727De22E5E9d8BAf0edAc6f37da032)`,
        'reason: AA23 reverted: BadSignature()',
        'notes:',
        '  - rejected by eth_sendUserOperation, so never in a transaction',
      ].join('\n'),
    )
  })
})
