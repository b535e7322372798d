import { concat, type Hex, hexToBigInt, keccak256, numberToHex, pad } from 'viem'
import { describe, expect, it } from 'vitest'
import { KeccakPreimages } from '../../../src/main/service/bundler/validation/keccakPreimages'

const ACCOUNT = '0x1111111111111111111111111111111111111111'
const slotAt = (base: Hex, offset: bigint) => numberToHex(hexToBigInt(base) + offset, { size: 32 })

describe('KeccakPreimages', () => {
  it('finds a learned preimage for slots up to 127 above its hash, not beyond', () => {
    const memory = new KeccakPreimages()
    const preimage = concat([pad(ACCOUNT), numberToHex(12345, { size: 32 })])
    memory.learn([preimage])
    const base = keccak256(preimage)
    expect(memory.preimagesFor([base], [])).toEqual([preimage])
    expect(memory.preimagesFor([slotAt(base, 127n)], [])).toEqual([preimage])
    expect(memory.preimagesFor([slotAt(base, 128n)], [])).toEqual([])
  })

  it('knows the mapping slots 0..15 keyed by an address it is asked about, without a trace', () => {
    const memory = new KeccakPreimages()
    const preimage = concat([pad(ACCOUNT), numberToHex(3, { size: 32 })])
    expect(memory.preimagesFor([keccak256(preimage)], [ACCOUNT])).toEqual([preimage])
    const far = concat([pad(ACCOUNT), numberToHex(16, { size: 32 })])
    expect(memory.preimagesFor([keccak256(far)], [ACCOUNT])).toEqual([])
  })

  it('ignores inputs shorter than a word or longer than four', () => {
    const memory = new KeccakPreimages()
    memory.learn(['0x1234', `0x${'ab'.repeat(129)}`])
    expect(memory.size).toBe(0)
  })

  it('gives the preimages of the hashes near a slot, and nothing when one of them is not known', () => {
    const memory = new KeccakPreimages()
    const mapped = concat([pad(ACCOUNT), numberToHex(3, { size: 32 })])
    const learned = concat([pad(ACCOUNT), numberToHex(12345, { size: 32 })])
    memory.learn([learned])
    const unknown = keccak256(concat([pad(ACCOUNT), numberToHex(99, { size: 32 })]))
    const hashes = [keccak256(mapped), keccak256(learned), unknown]
    const slots = [slotAt(keccak256(mapped), 1n), keccak256(learned)]
    expect(memory.preimagesOfBases(hashes, slots, [ACCOUNT])).toEqual([mapped, learned])
    expect(memory.preimagesOfBases(hashes, [...slots, slotAt(unknown, 127n)], [ACCOUNT])).toBeUndefined()
  })
})
