import { describe, expect, it } from 'vitest'
import {
  approveCall,
  isSponsored,
  toHexQuantity,
  withGasFields,
  withSimulationLimits,
} from '../../../../src/renderer/src/features/sandbox/userOperationFields'
import type { UserOperationJson } from '../../../../src/shared/sandbox'

const op: UserOperationJson = {
  sender: '0x1111111111111111111111111111111111111111',
  nonce: '0x0',
  callData: '0x',
  callGasLimit: '0x1',
  verificationGasLimit: '0x1',
  preVerificationGas: '0x1',
  maxFeePerGas: '0x5',
  maxPriorityFeePerGas: '0x2',
  signature: '0x',
}

describe("the sandbox's UserOperation fields", () => {
  it('writes any quantity as minimal 0x-hex', () => {
    expect([toHexQuantity(255), toHexQuantity('255'), toHexQuantity('0x00ff')]).toEqual([
      '0xff',
      '0xff',
      '0xff',
    ])
  })

  it("takes an estimate's gas limits as hex and its paymaster fields as they are, not its window or fees", () => {
    const next = withGasFields(op, {
      callGasLimit: 70000,
      verificationGasLimit: '0x0186a0',
      preVerificationGas: '50000',
      paymasterPostOpGasLimit: 1,
      paymaster: '0x3333333333333333333333333333333333333333',
      paymasterData: '0xabcd',
      validAfter: 1,
      validUntil: 2,
      maxFeePerGas: '0x99',
      paymasterVerificationGasLimit: null,
    })
    expect(next).toEqual({
      ...op,
      callGasLimit: '0x11170',
      verificationGasLimit: '0x186a0',
      preVerificationGas: '0xc350',
      paymasterPostOpGasLimit: '0x1',
      paymaster: '0x3333333333333333333333333333333333333333',
      paymasterData: '0xabcd',
    })
  })

  it('approves the token paymaster for the largest amount, as the SDK does in ERC20 mode', () => {
    const call = approveCall('0xToken', '0xABCDEF0000000000000000000000000000000001')
    expect(call.to).toBe('0xToken')
    expect(call.value).toBe('0')
    expect(call.data).toBe(
      `0x095ea7b3${'abcdef0000000000000000000000000000000001'.padStart(64, '0')}${'f'.repeat(64)}`,
    )
  })

  it('reads a v0.6 answer as sponsored by its paymasterAndData, a v0.7/v0.8 one by its paymaster', () => {
    expect(isSponsored({ paymasterAndData: '0x1234' })).toBe(true)
    expect(isSponsored({ paymasterAndData: '0x' })).toBe(false)
    expect(isSponsored({})).toBe(false)
    expect(isSponsored({ paymaster: '0x3333333333333333333333333333333333333333' })).toBe(true)
    expect(isSponsored({ paymaster: '', paymasterAndData: '0x1234' })).toBe(false)
  })

  it('gives generous limits, for a simulation, only to the limits no estimate set', () => {
    const built = { ...op, callGasLimit: '0x0', verificationGasLimit: '0x0', paymasterPostOpGasLimit: '0x0' }
    const { op: limited, filled } = withSimulationLimits(built)
    expect(filled).toEqual(['callGasLimit', 'verificationGasLimit', 'paymasterPostOpGasLimit'])
    expect(limited).toMatchObject({
      callGasLimit: '0xf4240',
      verificationGasLimit: '0xf4240',
      preVerificationGas: '0x1',
      paymasterPostOpGasLimit: '0x186a0',
    })
    expect('paymasterVerificationGasLimit' in limited).toBe(false)
    expect(withSimulationLimits(op)).toEqual({ op, filled: [] })
  })
})
