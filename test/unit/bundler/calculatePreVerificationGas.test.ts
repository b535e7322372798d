import { describe, expect, it } from 'vitest'
import { calculatePreVerificationGas } from '../../../src/main/service/bundler/estimation/calculatePreVerificationGas'

const base = {
  sender: '0x1111111111111111111111111111111111111111',
  nonce: 5n,
  initCode: '0x',
  callData: `0x${'ab'.repeat(100)}`,
  paymasterAndData: '0x',
  signature: `0x${'00'.repeat(65)}`,
} as const

describe('calculatePreVerificationGas', () => {
  it('counts the signature as non-zero bytes, so a dummy signature gives the same value as the real one', () => {
    const dummy = calculatePreVerificationGas({
      userOperation: { ...base, signature: `0x${'ff'.repeat(65)}` },
    })
    const zeros = calculatePreVerificationGas({ userOperation: base })
    expect(dummy).toBe(zeros)
  })

  it('grows with callData: 16 gas per non-zero byte plus the word overhead', () => {
    const longer = calculatePreVerificationGas({
      userOperation: { ...base, callData: `0x${'ab'.repeat(132)}` },
    })
    expect(longer - calculatePreVerificationGas({ userOperation: base })).toBe(32n * 16n + 4n)
  })

  it('covers the 21000 transaction cost and the per-operation overhead', () => {
    expect(calculatePreVerificationGas({ userOperation: base })).toBeGreaterThan(21_000n + 18_300n)
  })

  it('counts paymasterAndData unless asked not to (the send-side floor leaves it out)', () => {
    const op = { ...base, paymasterAndData: `0x${'cd'.repeat(276)}` as const }
    const withData = calculatePreVerificationGas({ userOperation: op })
    const floor = calculatePreVerificationGas({ userOperation: op, includePaymasterAndData: false })
    expect(floor).toBe(calculatePreVerificationGas({ userOperation: base }))
    expect(withData).toBeGreaterThan(floor + 276n * 16n)
  })
})
