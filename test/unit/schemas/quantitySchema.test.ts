import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { describeZodError } from '../../../src/main/service/schemas/describeZodError'
import { MAX_UINT256, QuantitySchema, quantitySchema } from '../../../src/main/service/schemas/quantitySchema'

const read = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value)
  return result.success ? result.data : describeZodError(result.error)
}

describe('the one quantity schema of every edge', () => {
  it('reads hex, decimal strings, bare 0x and safe JSON integers as bigints', () => {
    expect(read(QuantitySchema, '0x1f')).toBe(31n)
    expect(read(QuantitySchema, '0x')).toBe(0n)
    expect(read(QuantitySchema, '25000')).toBe(25_000n)
    expect(read(QuantitySchema, 100)).toBe(100n)
    expect(read(QuantitySchema, `0x${'f'.repeat(64)}`)).toBe(MAX_UINT256)
    expect(read(QuantitySchema, MAX_UINT256.toString())).toBe(MAX_UINT256)
  })

  it('refuses a value above uint256 in every spelling, and four megabytes of digits without reading them', () => {
    expect(read(QuantitySchema, `0x1${'0'.repeat(64)}`)).toBe('value does not fit in uint256')
    expect(read(QuantitySchema, (MAX_UINT256 + 1n).toString())).toBe('value does not fit in uint256')
    const started = performance.now()
    expect(read(QuantitySchema, '9'.repeat(4_000_000))).toBe('value does not fit in uint256')
    // Parsed as a BigInt it would take seconds (quadratic: 0.26 s for one megabyte here); refused on its length it
    // takes milliseconds, however loaded the machine.
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('refuses what is not a non-negative integer', () => {
    for (const value of [
      '1.5',
      '-1',
      '0xzz',
      '',
      ' 1',
      '1e3',
      -1,
      1.5,
      2 ** 53,
      Number.NaN,
      null,
      true,
      {},
      [],
    ])
      expect(read(QuantitySchema, value)).toBe('expected a non-negative integer (0x-hex or decimal)')
  })

  it('bounds a uint64 and names a REST field in its messages', () => {
    expect(read(quantitySchema({ bits: 64 }), `0x1${'0'.repeat(16)}`)).toBe('value does not fit in uint64')
    expect(read(quantitySchema({ field: 'amountWei' }), 'ten')).toBe(
      'amountWei must be a non-negative integer (0x-hex or decimal)',
    )
    expect(
      read(z.object({ amountWei: quantitySchema({ field: 'amountWei' }) }), {
        amountWei: `1${'0'.repeat(78)}`,
      }),
    ).toBe('amountWei: amountWei must be at most 2^256 - 1 (a uint256)')
  })
})
