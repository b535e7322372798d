import { describe, expect, it } from 'vitest'
import { encodeBlockRange, entryPointV07, entryPointV09 } from '../../../src/main/service/entryPoint'
import {
  checkBlockWindow,
  computeBlockWindow,
  describeBlockWindowFallback,
} from '../../../src/main/service/policy/blockWindow'
import { type BlockWindowPolicy, MAX_WINDOW_BLOCK } from '../../../src/shared/api/dapps'

const policy = (fields: Partial<BlockWindowPolicy> = {}): BlockWindowPolicy => ({
  validForBlocks: 20,
  validAfterBlock: null,
  validUntilBlock: null,
  ...fields,
})

/** The validationData word a paymaster returns for this window (no signature failure). */
const word = ({ validAfter, validUntil }: { validAfter: number; validUntil: number }) =>
  (BigInt(validAfter) << 208n) | (BigInt(validUntil) << 160n)

describe('computeBlockWindow', () => {
  it('signs from the chain head for validForBlocks more blocks: valid after the block before the head (a bundle simulated at the head passes), until head + validForBlocks', () => {
    expect(computeBlockWindow(policy(), 100)).toEqual({ validAfterBlock: 99, validUntilBlock: 120 })
  })

  it("ends no later than the dApp's validUntilBlock and starts no earlier than its validAfterBlock", () => {
    expect(computeBlockWindow(policy({ validUntilBlock: 110 }), 100)).toEqual({
      validAfterBlock: 99,
      validUntilBlock: 110,
    })
    expect(computeBlockWindow(policy({ validAfterBlock: 100 }), 101)).toEqual({
      validAfterBlock: 100,
      validUntilBlock: 121,
    })
  })

  it('starts after block 1 at the earliest (the EntryPoint reads a range only above the bare flag) and ends at the largest block a window names', () => {
    expect(computeBlockWindow(policy(), 0)).toEqual({ validAfterBlock: 1, validUntilBlock: 20 })
    expect(computeBlockWindow(policy({ validForBlocks: MAX_WINDOW_BLOCK }), 5).validUntilBlock).toBe(
      MAX_WINDOW_BLOCK,
    )
  })

  it('is signed as validAfter/validUntil with the top bit set, which v0.9 reads back as the same block range and v0.7 as a time', () => {
    const range = computeBlockWindow(policy(), 100)
    const fields = encodeBlockRange(range)
    expect(fields).toEqual({ validAfter: 2 ** 47 + 99, validUntil: 2 ** 47 + 120 })
    expect(entryPointV09.readValidationData(word(fields)).blockRange).toEqual(range)
    expect(entryPointV07.readValidationData(word(fields)).blockRange).toBeNull()
    expect(() => encodeBlockRange({ validAfterBlock: 0, validUntilBlock: 5 })).toThrow(/after block 1/)
  })
})

describe('checkBlockWindow', () => {
  it('passes inside the dApp window and says how long each sponsorship lasts and where the chain is', () => {
    expect(checkBlockWindow(policy({ validAfterBlock: 50, validUntilBlock: 200 }), 100)).toEqual({
      outcome: 'pass',
      detail:
        'block window: each sponsorship valid for 20 blocks (sponsoring after block 50, until block 200), the chain is at block 100',
    })
    expect(checkBlockWindow(policy(), 7).detail).toBe(
      'block window: each sponsorship valid for 20 blocks, the chain is at block 7',
    )
  })

  it('fails until the chain is past validAfterBlock', () => {
    expect(checkBlockWindow(policy({ validAfterBlock: 100 }), 100)).toEqual({
      outcome: 'fail',
      detail: 'Sponsorship starts after block 100 (the chain is at block 100)',
    })
    expect(checkBlockWindow(policy({ validAfterBlock: 100 }), 101).outcome).toBe('pass')
  })

  it('fails once the chain reaches validUntilBlock, and when too few blocks are left for a bundle', () => {
    expect(checkBlockWindow(policy({ validUntilBlock: 100 }), 100)).toEqual({
      outcome: 'fail',
      detail: 'Sponsorship ended at block 100 (the chain is at block 100)',
    })
    expect(checkBlockWindow(policy({ validUntilBlock: 100 }), 99)).toEqual({
      outcome: 'fail',
      detail:
        'Sponsorship ends at block 100: the chain is at block 99, too close to it for an operation to be bundled in time',
    })
    expect(checkBlockWindow(policy({ validUntilBlock: 100 }), 98).outcome).toBe('pass')
  })
})

describe('describeBlockWindowFallback', () => {
  it('says an older EntryPoint keeps the time window', () => {
    expect(describeBlockWindowFallback('0.7')).toEqual({
      outcome: 'pass',
      detail:
        'block window not applied to this EntryPoint v0.7 operation (EntryPoint v0.9 only: v0.6, v0.7 and v0.8 read validUntil and validAfter as times, so their sponsorships keep the time window): signed with a time window',
    })
  })
})
