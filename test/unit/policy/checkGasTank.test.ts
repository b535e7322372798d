import { describe, expect, it } from 'vitest'
import { checkGasTank } from '../../../src/main/service/policy/checkGasTank'

describe('gas tank step', () => {
  it('passes when the balance covers the maximum cost and fails with both amounts when it does not', () => {
    expect(checkGasTank({ paymasterId: '0xabc', balance: 10n ** 18n, maxCost: 10n ** 18n }).outcome).toBe(
      'pass',
    )
    expect(checkGasTank({ paymasterId: '0xabc', balance: 10n ** 15n, maxCost: 2n * 10n ** 15n })).toEqual({
      outcome: 'fail',
      detail: 'Gas tank too low: gas tank 0xabc holds 0.001 ETH; the operation may cost up to 0.002 ETH',
    })
  })
})
