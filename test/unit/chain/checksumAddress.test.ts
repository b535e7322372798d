import { getAddress, keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { checksumAddress } from '../../../src/main/service/chain/checksumAddress'

describe('checksumAddress', () => {
  it("gives viem's EIP-55 form for addresses in any case", () => {
    for (let i = 0; i < 500; i++) {
      const lower = `0x${keccak256(toHex(i)).slice(26)}`
      expect(checksumAddress(lower)).toBe(getAddress(lower))
      expect(checksumAddress(lower.toUpperCase().replace('0X', '0x'))).toBe(getAddress(lower))
    }
    // EIP-55's own examples
    for (const address of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(address.toLowerCase())).toBe(address)
    }
  })
})
