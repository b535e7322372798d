import { describe, expect, it } from 'vitest'
import { StateOverrideSchema } from '../../../src/main/service/bundler/stateOverrideSchema'
import { describeZodError } from '../../../src/main/service/schemas/describeZodError'

const account = '0x00000000000000000000000000000000000b0b0b'
const slot = `0x${'0'.repeat(63)}1`
const check = (value: unknown) => {
  const result = StateOverrideSchema.safeParse(value)
  return result.success ? result.data : describeZodError(result.error, 'params[2]')
}

describe('eth_estimateUserOperationGas state overrides', () => {
  it('gives the node its own form: quantities as hex without leading zeros, hex in lower case', () => {
    expect(
      check({
        [account]: {
          balance: '1000000000000000000',
          nonce: '0x0005',
          code: '0x6001600055',
          stateDiff: { [slot]: `0x${'A'.repeat(64)}` },
        },
      }),
    ).toEqual({
      [account]: {
        balance: '0xde0b6b3a7640000',
        nonce: '0x5',
        code: '0x6001600055',
        stateDiff: { [slot]: `0x${'a'.repeat(64)}` },
      },
    })
  })

  it('refuses what the node could not parse, naming the field', () => {
    expect(check({ [account]: { balance: 'zz' } })).toBe(
      `params[2].${account}.balance: expected a non-negative integer (0x-hex or decimal)`,
    )
    // A lone UTF-16 surrogate (anvil's IPC drops such a request without an answer).
    expect(check({ [account]: { balance: '0x1\udc00' } })).toBe(
      `params[2].${account}.balance: expected a non-negative integer (0x-hex or decimal)`,
    )
    expect(check({ [account]: { balance: `0x1${'0'.repeat(64)}` } })).toBe(
      `params[2].${account}.balance: value does not fit in uint256`,
    )
    expect(check({ [account]: { nonce: `0x1${'0'.repeat(16)}` } })).toBe(
      `params[2].${account}.nonce: value does not fit in uint64`,
    )
    expect(check({ [account]: { code: '0x600' } })).toBe(
      `params[2].${account}.code: expected bytecode as 0x-prefixed hex bytes`,
    )
    expect(check({ [account]: { code: `0x${'00'.repeat(256 * 1024 + 1)}` } })).toBe(
      `params[2].${account}.code: expected bytecode of at most 256 KiB`,
    )
    expect(check({ [account]: { state: { '0x01': slot } } })).toMatch(
      /storage slot "0x01": expected a 32-byte hex value/,
    )
    expect(check({ [account]: { stateDiff: { [slot]: '0x1' } } })).toMatch(/32-byte hex value/)
    expect(check({ [account]: { state: {}, stateDiff: {} } })).toMatch(
      /state and stateDiff cannot both be set/,
    )
    expect(check({ [account]: { balance: '0x1', storage: {} } })).toMatch(/storage/)
    expect(check({ '0x1234': {} })).toMatch(/state override keys must be addresses/)
    expect(check([])).toMatch(/expected state overrides/)
  })
})
