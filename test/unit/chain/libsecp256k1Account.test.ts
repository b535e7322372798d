import { keccak256, parseGwei, recoverMessageAddress, recoverTransactionAddress, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { toLibsecp256k1Account } from '../../../src/main/service/chain/keys/toLibsecp256k1Account'

const keys = Array.from({ length: 12 }, () => generatePrivateKey())

describe('the libsecp256k1 account (executor, paymaster signer, bench owners)', () => {
  it('signs hashes and messages byte-identical to viem (both RFC 6979, low s) and recoverable to its address', async () => {
    for (const [i, key] of keys.entries()) {
      const ours = toLibsecp256k1Account(key)
      const viems = privateKeyToAccount(key)
      expect(ours.address).toBe(viems.address)
      const hash = keccak256(toHex(`operation ${i}`))
      expect(await ours.sign?.({ hash })).toBe(await viems.sign({ hash }))
      const message = { raw: hash }
      const signature = await ours.signMessage({ message })
      expect(signature).toBe(await viems.signMessage({ message }))
      expect(await recoverMessageAddress({ message, signature })).toBe(ours.address)
      expect(await ours.signMessage({ message: 'hello' })).toBe(await viems.signMessage({ message: 'hello' }))
    }
  })

  it("has viem's address, public key and account shape, and signs EIP-7702 authorizations as viem does", async () => {
    for (const key of keys.slice(0, 4)) {
      const ours = toLibsecp256k1Account(key)
      const viems = privateKeyToAccount(key)
      expect(ours.address).toBe(viems.address)
      expect(ours.publicKey).toBe(viems.publicKey)
      expect(ours.type).toBe('local')
      expect(ours.source).toBe('libsecp256k1')
      expect(Object.keys(ours).sort()).toEqual(Object.keys(viems).sort())
      const authorization = {
        address: '0x000000000000000000000000000000000000beef',
        chainId: 31337,
        nonce: 7,
      } as const
      expect(await ours.signAuthorization?.(authorization)).toEqual(
        await viems.signAuthorization(authorization),
      )
    }
  })

  it('refuses a private key outside the curve order', () => {
    expect(() => toLibsecp256k1Account(`0x${'ff'.repeat(32)}`)).toThrow()
    expect(() => toLibsecp256k1Account(`0x${'00'.repeat(32)}`)).toThrow()
  })

  it('signs EIP-1559, EIP-2930 and legacy transactions byte-identical to viem', async () => {
    for (const [i, key] of keys.entries()) {
      const ours = toLibsecp256k1Account(key)
      const viems = privateKeyToAccount(key)
      const base = {
        chainId: 31337,
        to: viems.address,
        nonce: i,
        gas: 100_000n,
        value: BigInt(i),
        data: toHex(`d${i}`),
      }
      const transactions = [
        { ...base, type: 'eip1559', maxFeePerGas: parseGwei('3'), maxPriorityFeePerGas: parseGwei('1') },
        {
          ...base,
          type: 'eip2930',
          gasPrice: parseGwei('2'),
          accessList: [{ address: viems.address, storageKeys: [] }],
        },
        { ...base, type: 'legacy', gasPrice: parseGwei('2') },
      ] as const
      for (const transaction of transactions) {
        const signed = await ours.signTransaction(transaction)
        expect(signed).toBe(await viems.signTransaction(transaction))
        expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(ours.address)
      }
    }
  })

  it('signs EIP-712 typed data byte-identical to viem', async () => {
    const typedData = {
      domain: { name: 'Opstation', version: '1', chainId: 31337 },
      types: {
        Sponsor: [
          { name: 'paymasterId', type: 'address' },
          { name: 'amount', type: 'uint256' },
        ],
      },
      primaryType: 'Sponsor',
      message: { paymasterId: privateKeyToAccount(keys[0] as `0x${string}`).address, amount: 10n },
    } as const
    for (const key of keys) {
      expect(await toLibsecp256k1Account(key).signTypedData(typedData)).toBe(
        await privateKeyToAccount(key).signTypedData(typedData),
      )
    }
  })
})
