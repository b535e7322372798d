import { keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { keccak256OfCode } from '../../../src/main/service/chain/keccak256'

describe('keccak256OfCode (contract code hashes kept per process)', () => {
  it("gives viem's keccak256, the first time and when asked again with an equal string", () => {
    const code = toHex(new Uint8Array(24_576).map((_, i) => (i * 7) % 256))
    expect(keccak256OfCode(code)).toBe(keccak256(code))
    const sameText = `0x${code.slice(2)}` as const
    expect(keccak256OfCode(sameText)).toBe(keccak256(code))
  })

  it('stays right past the number of hashes it keeps', () => {
    const codes = Array.from({ length: 1_200 }, (_, i) => toHex(`contract ${i}`))
    for (const code of codes) expect(keccak256OfCode(code)).toBe(keccak256(code))
    for (const code of codes.slice(0, 50)) expect(keccak256OfCode(code)).toBe(keccak256(code))
  })
})
