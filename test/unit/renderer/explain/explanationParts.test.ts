import { describe, expect, it } from 'vitest'
import {
  callLabel,
  countCalls,
  formatArgument,
  formatArguments,
  formatArgumentsShort,
  formatDelta,
  formatValidityRange,
  isFailureOrigin,
  isOutsideWindow,
  leadsToFailure,
  shortenArgument,
  statusToneOf,
  usedPercentOf,
} from '../../../../src/renderer/src/features/explain/explanationParts'
import type { ExplainedCall } from '../../../../src/shared/api/explanation'

function call(change: Partial<ExplainedCall> = {}): ExplainedCall {
  return {
    type: 'CALL',
    from: '0x0000000000000000000000000000000000000001',
    to: '0x0000000000000000000000000000000000000002',
    contract: null,
    function: null,
    value: '0',
    gas: '100000',
    gasUsed: '21000',
    error: null,
    calls: [],
    ...change,
  }
}

// account.execute → Vault.withdraw → Ledger.debit, the debit reverting and the revert bubbling up.
const debit = call({ contract: 'Ledger', function: 'debit(address,uint256)', error: 'execution reverted' })
const withdraw = call({
  contract: 'Vault',
  function: 'withdraw(uint256)',
  error: 'execution reverted',
  calls: [debit],
})
const balance = call({ contract: 'Ledger', function: 'balanceOf(address)' })
const execute = call({
  contract: 'SimpleAccount v0.7',
  function: 'execute(address,uint256,bytes)',
  calls: [balance, withdraw],
})

describe("an explanation's parts as the console shows them", () => {
  it('marks only the frame a failure started in, not the frames its revert bubbled through', () => {
    expect(isFailureOrigin(debit)).toBe(true)
    expect(isFailureOrigin(withdraw)).toBe(false)
    expect(isFailureOrigin(execute)).toBe(false)
    expect(isFailureOrigin(balance)).toBe(false)
  })

  it('opens the tree on the path to a failure and leaves the rest closed', () => {
    expect(leadsToFailure(execute)).toBe(true)
    expect(leadsToFailure(withdraw)).toBe(true)
    expect(leadsToFailure(balance)).toBe(false)
    expect(countCalls(execute)).toBe(4)
  })

  it('names a call by contract and function, by either alone, or not at all when neither is known', () => {
    expect(callLabel(debit)).toBe('Ledger.debit(address,uint256)')
    expect(callLabel(call({ contract: 'Vault' }))).toBe('Vault')
    expect(callLabel(call({ function: 'transfer(address,uint256)' }))).toBe('transfer(address,uint256)')
    expect(callLabel(call())).toBeNull()
  })

  it('prints decoded arguments on one line: scalars as sent, arrays in brackets, objects as JSON', () => {
    expect(formatArguments(['7', true, ['1', '2'], { a: '1' }])).toBe('7, true, [1, 2], {"a":"1"}')
    expect(formatArguments(undefined)).toBe('')
    expect(formatArgument(null)).toBe('null')
  })

  it("measures a phase's use of its limit in percent, capped at 100, and 0 without a limit", () => {
    expect(usedPercentOf({ gasUsed: '50000', gasLimit: '200000' })).toBe(25)
    expect(usedPercentOf({ gasUsed: '1', gasLimit: '3' })).toBe(33.3)
    expect(usedPercentOf({ gasUsed: '90000', gasLimit: '80000' })).toBe(100)
    expect(usedPercentOf({ gasUsed: '10', gasLimit: '0' })).toBe(0)
  })

  it('tones the statuses: final failures bad, would-be failures a warning, unknown ones neutral', () => {
    expect(statusToneOf('mined')).toBe('ok')
    expect(statusToneOf('would-succeed')).toBe('ok')
    expect(statusToneOf('reverted')).toBe('bad')
    expect(statusToneOf('rejected')).toBe('bad')
    expect(statusToneOf('would-revert')).toBe('warn')
    expect(statusToneOf('some-new-status')).toBe('info')
  })

  it('signs a positive balance change and keeps a negative one', () => {
    expect(formatDelta('100')).toBe('+100')
    expect(formatDelta('-5')).toBe('-5')
  })
})

describe('long arguments in a line', () => {
  it('keeps an address or a word whole, cuts long hex to its ends and size, and other text to its start', () => {
    const address = '0x00000000000000000000000000000000000000aa'
    expect(shortenArgument(address)).toBe(address)
    expect(shortenArgument(`0x${'ab'.repeat(100)}`)).toBe('0xabababab…abababab (100 bytes)')
    expect(shortenArgument('x'.repeat(100))).toBe(`${'x'.repeat(65)}…`)
    expect(formatArgumentsShort([address, '7'])).toBe(`${address}, 7`)
  })
})

describe('validity windows', () => {
  it('reads an unbounded window as always valid, without expiry', () => {
    expect(formatValidityRange({ unit: 'timestamp', validAfter: '0', validUntil: null })).toBe(
      'always (no expiry)',
    )
  })

  it('shows a v0.9 block window in block numbers', () => {
    expect(formatValidityRange({ unit: 'block', validAfter: '1200', validUntil: '1500' })).toBe(
      'from block 1,200 until block 1,500',
    )
    expect(formatValidityRange({ unit: 'block', validAfter: '7', validUntil: null })).toBe(
      'from block 7 (no expiry)',
    )
  })

  it('shows a timestamp window as dates, not seconds', () => {
    const range = formatValidityRange({ unit: 'timestamp', validAfter: '0', validUntil: '1800000000' })
    expect(range).toMatch(/^from the start until 2027-01-15 \d\d:\d\d:\d\d$/)
  })

  it('makes an expired or not yet valid window stand out, not a valid or unchecked one', () => {
    expect(isOutsideWindow({ state: 'expired' })).toBe(true)
    expect(isOutsideWindow({ state: 'not yet valid' })).toBe(true)
    expect(isOutsideWindow({ state: 'valid' })).toBe(false)
    expect(isOutsideWindow({ state: null })).toBe(false)
  })
})
