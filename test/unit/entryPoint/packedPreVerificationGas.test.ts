import { describe, expect, it } from 'vitest'
import {
  breakDownPackedPreVerificationGas,
  packedPreVerificationGasConfig as config,
  packedPreVerificationGas,
} from '../../../src/main/service/entryPoint/estimation/preVerificationGas'

/** `abi.encode`d bytes (hex without 0x) with `zero` zero bytes then `nonZero` 0xff bytes. */
const encodedOf = (zero: number, nonZero: number) => `${'00'.repeat(zero)}${'ff'.repeat(nonZero)}`
const fixed = config.transactionGasStipend + config.fixedGasOverhead + config.perUserOpGasOverhead

describe("preVerificationGas by the reference bundler's EIP-7623 calculator (packed EntryPoints)", () => {
  it('charges 4 gas a token (a zero byte one token, any other byte four) and 9.5 gas a callData word above the overheads', () => {
    // 320 bytes: 256 zero (256 tokens) and 64 non-zero (256 tokens); callData of 40 bytes is 2 words.
    const gas = packedPreVerificationGas({
      encoded: encodedOf(256, 64),
      callData: `0x${'12'.repeat(40)}`,
      gasUsed: 0n,
      eip7702: false,
    })
    expect(gas).toBe(BigInt(fixed + 4 * 512 + 19))
  })

  it('asks at least the EIP-7623 floor of 10 gas a token for calldata that the gas the operation uses does not pay', () => {
    // 4,000 non-zero bytes: 16,000 tokens, whose floor (160,000) is above 4 gas a token plus the overheads.
    const large = { encoded: encodedOf(0, 4_000), callData: '0x' as const, eip7702: false }
    expect(packedPreVerificationGas({ ...large, gasUsed: 0n })).toBe(
      BigInt(config.transactionGasStipend + 160_000),
    )
    // Gas the operation is known to use pays for the calldata first: 50,000 of it leaves 50,000 less to ask.
    expect(packedPreVerificationGas({ ...large, gasUsed: 50_000n })).toBe(
      BigInt(config.transactionGasStipend + 160_000 - 50_000),
    )
    // Once the used gas covers the floor, only the standard cost remains.
    expect(packedPreVerificationGas({ ...large, gasUsed: 1_000_000n })).toBe(BigInt(fixed + 4 * 16_000))
  })

  it('adds the EIP-7702 authorization cost, and prices callData that calls executeUserOp by the whole operation', () => {
    const base = { encoded: encodedOf(64, 0), callData: '0x' as const, gasUsed: 0n }
    expect(packedPreVerificationGas({ ...base, eip7702: true })).toBe(
      packedPreVerificationGas({ ...base, eip7702: false }) + BigInt(config.eip7702AuthGas),
    )
    const executeUserOp = packedPreVerificationGas({ ...base, callData: '0x8dd7712f', eip7702: false })
    // 64 bytes are (64 + 31) / 32 words, unrounded, as the reference counts them.
    expect(executeUserOp).toBe(
      BigInt(
        Math.round(
          fixed +
            4 * 64 +
            config.executeUserOpGasOverhead +
            config.executeUserOpPerWordGasOverhead * (95 / 32),
        ),
      ),
    )
  })

  it('breaks its figure into parts that add up to it: the standard cost, or the floor less the gas used otherwise', () => {
    const sum = (parts: { gas: number }[]) => Math.round(parts.reduce((total, part) => total + part.gas, 0))
    const small = {
      encoded: encodedOf(256, 64),
      callData: `0x${'12'.repeat(40)}` as const,
      gasUsed: 0n,
      eip7702: true,
    }
    const standard = breakDownPackedPreVerificationGas(small)
    expect(standard.total).toBe(packedPreVerificationGas(small))
    expect(sum(standard.parts)).toBe(Number(standard.total))
    expect(standard.parts.map((part) => part.name)).toContain('EIP-7702 authorization')
    const large = { encoded: encodedOf(0, 4_000), callData: '0x' as const, gasUsed: 50_000n, eip7702: false }
    const floor = breakDownPackedPreVerificationGas(large)
    expect(floor.total).toBe(packedPreVerificationGas(large))
    expect(sum(floor.parts)).toBe(Number(floor.total))
    expect(floor.parts[1]?.name).toBe('EIP-7623 floor: 16000 tokens × 10')
  })
})
