import { describe, expect, it } from 'vitest'
import { describeSignedWindow } from '../../../../src/renderer/src/features/activity/signedWindow'

describe('describeSignedWindow', () => {
  it('shows a v0.9 block window as the blocks it is valid in, with the bounds the EntryPoint reads', () => {
    expect(
      describeSignedWindow({ blockWindow: { validAfterBlock: 99, validUntilBlock: 120 }, validUntil: null }),
    ).toBe('blocks 100–120 (valid after block 99, until block 120)')
  })

  it('shows a time window by its end, and nothing when no window was signed', () => {
    expect(describeSignedWindow({ blockWindow: null, validUntil: 1_800_000_000 })).toMatch(
      /^until 2027-01-15 /,
    )
    expect(describeSignedWindow({ blockWindow: null, validUntil: null })).toBeNull()
  })
})
