import { describe, expect, it } from 'vitest'
import {
  fillZeroPush32,
  findZeroPush32Offsets,
  matchesWithImmutablesMasked,
  patchImmutables,
} from '../../../src/main/service/chain/deploy/patchImmutables'

const zero32 = '00'.repeat(32)

describe('patchImmutables', () => {
  it('writes each value left-padded at every reported offset', () => {
    const code = `0x60${'00'}7f${zero32}7f${zero32}00` as const
    const patched = patchImmutables(
      code,
      { A: [{ start: 3, length: 32 }], B: [{ start: 36, length: 32 }] },
      {
        A: '0x1111111111111111111111111111111111111111',
        B: '0x05',
      },
    )
    expect(patched).toBe(`0x6000${'7f'}${'00'.repeat(12)}${'11'.repeat(20)}7f${'00'.repeat(31)}0500`)
  })

  it('refuses a missing or unknown immutable', () => {
    expect(() => patchImmutables('0x00', { A: [{ start: 0, length: 32 }] }, {})).toThrow(
      /No value for immutable A/,
    )
    expect(() => patchImmutables('0x00', {}, { B: '0x01' })).toThrow(/Unknown immutable B/)
  })
})

describe('findZeroPush32Offsets', () => {
  it('finds PUSH32 0 placeholders and ignores 0x7f bytes inside other push data', () => {
    // PUSH2 0x7f00 (data, not an opcode) then PUSH32 0.
    const code = `0x617f007f${zero32}` as const
    expect(findZeroPush32Offsets(code)).toEqual([4])
    expect(fillZeroPush32(code, '0xff')).toBe(`0x617f007f${'00'.repeat(31)}ff`)
  })
})

describe('matchesWithImmutablesMasked', () => {
  const template = `0x60017f${zero32}7f${zero32}00` as const
  it('accepts code that differs from the template only inside its PUSH32 0 placeholders', () => {
    expect(matchesWithImmutablesMasked(`0x60017f${'ab'.repeat(32)}7f${'cd'.repeat(32)}00`, template)).toBe(
      true,
    )
    expect(matchesWithImmutablesMasked(template, template)).toBe(true)
  })
  it('refuses code that differs outside the placeholders or in length', () => {
    expect(matchesWithImmutablesMasked(`0x60027f${'ab'.repeat(32)}7f${zero32}00`, template)).toBe(false)
    expect(matchesWithImmutablesMasked(`0x60017f${zero32}7f${zero32}01`, template)).toBe(false)
    expect(matchesWithImmutablesMasked(`0x60017f${zero32}7f${zero32}0000`, template)).toBe(false)
  })
})
