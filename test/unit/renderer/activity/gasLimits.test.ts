import { describe, expect, it } from 'vitest'
import { listGasLimits } from '../../../../src/renderer/src/features/activity/gasLimits'

describe('gas limits shown for a record', () => {
  const gas = {
    callGasLimit: '3',
    verificationGasLimit: '2',
    preVerificationGas: '1',
    maxFeePerGas: '99',
    paymasterVerificationGasLimit: '4',
    paymasterPostOpGasLimit: null,
  }

  it("lists the present limits in the operation's order, fees and absent ones left out", () => {
    expect(listGasLimits(gas)).toEqual([
      { field: 'preVerificationGas', value: '1' },
      { field: 'verificationGasLimit', value: '2' },
      { field: 'callGasLimit', value: '3' },
      { field: 'paymasterVerificationGasLimit', value: '4' },
    ])
  })

  it("leaves out the paymaster's limits of an operation without a paymaster", () => {
    expect(listGasLimits(gas, false).map((l) => l.field)).toEqual([
      'preVerificationGas',
      'verificationGasLimit',
      'callGasLimit',
    ])
  })
})
