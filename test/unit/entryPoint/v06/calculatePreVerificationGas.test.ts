import { describe, expect, it } from 'vitest'
import { entryPointV07, entryPointV08 } from '../../../../src/main/service/entryPoint'
import { calculatePreVerificationGas } from '../../../../src/main/service/entryPoint/v06/calculatePreVerificationGas'
import type { UserOperationV07 } from '../../../../src/main/service/entryPoint/v07/userOperation'

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

  it("counts paymasterAndData as non-zero bytes of its length: stub data and the paymaster's signed data give the same value", () => {
    const stub = calculatePreVerificationGas({
      userOperation: { ...base, paymasterAndData: `0x${'ff'.repeat(117)}` },
    })
    const signed = calculatePreVerificationGas({
      userOperation: { ...base, paymasterAndData: `0x${'00'.repeat(40)}${'ab'.repeat(77)}` },
    })
    expect(signed).toBe(stub)
  })
})

describe('calculatePreVerificationGas of v0.7 / v0.8 operations', () => {
  const op: UserOperationV07 = {
    sender: '0x1111111111111111111111111111111111111111',
    nonce: 5n,
    factory: null,
    factoryData: '0x',
    callData: `0x${'ab'.repeat(100)}`,
    callGasLimit: 0n,
    verificationGasLimit: 0n,
    preVerificationGas: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    paymaster: '0x2222222222222222222222222222222222222222',
    paymasterVerificationGasLimit: 0n,
    paymasterPostOpGasLimit: 0n,
    paymasterData: `0x${'ff'.repeat(97)}`,
    signature: `0x${'00'.repeat(65)}`,
    eip7702Auth: null,
  }

  it.each([entryPointV07, entryPointV08])(
    "counts paymasterData as non-zero bytes of its length (v$version): a paymaster's placeholder and its signed data give the same value",
    (entryPoint) => {
      const signed = { ...op, paymasterData: `0x${'00'.repeat(32)}${'cd'.repeat(65)}` as const }
      expect(entryPoint.calculatePreVerificationGas(signed)).toBe(entryPoint.calculatePreVerificationGas(op))
      const longer = { ...op, paymasterData: `0x${'ff'.repeat(98)}` as const }
      expect(entryPoint.calculatePreVerificationGas(longer)).toBeGreaterThan(
        entryPoint.calculatePreVerificationGas(op),
      )
    },
  )
})
