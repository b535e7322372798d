import { keccak256, recoverMessageAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { toLibsecp256k1Account } from '../../../bench/toLibsecp256k1Account'

describe("the bench clients' libsecp256k1 signer", () => {
  it('signs messages that recover to its address, identical to viem (both are RFC 6979, low s)', async () => {
    for (let i = 0; i < 20; i++) {
      const key = generatePrivateKey()
      const account = toLibsecp256k1Account(key)
      const message = { raw: keccak256(toHex(`operation ${i}`)) }
      const signature = await account.signMessage({ message })
      expect(await recoverMessageAddress({ message, signature })).toBe(account.address)
      expect(signature).toBe(await privateKeyToAccount(key).signMessage({ message }))
    }
  })
})
