import { describe, expect, it } from 'vitest'
import { AA_ERRORS, explainAaError, getAaError } from '../../../src/shared/aaErrors'

describe('AA error explanations', () => {
  it('finds the code inside EntryPoint and bundler messages', () => {
    expect(explainAaError("FailedOp(0, AA21 didn't pay prefund)")?.code).toBe('AA21')
    expect(explainAaError('AA23 reverted: ECDSA: invalid signature length')?.entity).toBe('account')
    expect(explainAaError('paymaster validation failed: AA31 paymaster deposit too low')?.fix).toMatch(
      /gas tank/,
    )
    expect(explainAaError('execution reverted')).toBeUndefined()
    expect(explainAaError(null)).toBeUndefined()
    expect(explainAaError('XAA21')).toBeUndefined()
  })

  it("explains v0.9's codes (block ranges, malformed paymaster data) and the custom errors that replace AA93/AA98", () => {
    expect(explainAaError('FailedOp(0, AA27 outside valid block range)')?.entity).toBe('account')
    expect(explainAaError('AA37 paymaster inval block range')?.entity).toBe('paymaster')
    expect(explainAaError('AA35 malformed paymaster data')?.title).toBe('malformed paymaster data')
    expect(explainAaError('InvalidPaymaster(0x33) (AA98 invalid paymaster)')?.code).toBe('AA98')
    expect(explainAaError('InvalidPaymasterData(3) (AA93 invalid paymasterAndData)')?.code).toBe('AA93')
  })

  it('covers AA10..AA98 with plain words and a fix for each', () => {
    const codes = AA_ERRORS.map((e) => e.code)
    for (const code of [
      'AA10',
      'AA13',
      'AA14',
      'AA15',
      'AA20',
      'AA21',
      'AA22',
      'AA23',
      'AA24',
      'AA25',
      'AA27',
      'AA30',
      'AA31',
      'AA32',
      'AA33',
      'AA34',
      'AA35',
      'AA37',
      'AA40',
      'AA41',
      'AA50',
      'AA51',
      'AA90',
      'AA91',
      'AA92',
      'AA93',
      'AA94',
      'AA95',
      'AA98',
    ]) {
      expect(codes).toContain(code)
    }
    for (const e of AA_ERRORS) {
      expect(e.meaning.length).toBeGreaterThan(20)
      expect(e.fix.length).toBeGreaterThan(20)
    }
    expect(getAaError('aa25')?.title).toBe('invalid account nonce')
  })
})
