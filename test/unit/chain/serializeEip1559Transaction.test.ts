import { randomBytes } from 'node:crypto'
import {
  type Address,
  type Hex,
  numberToHex,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { serializeEip1559Transaction } from '../../../src/main/service/chain/keys/serializeEip1559Transaction'
import { signTransaction } from '../../../src/main/service/chain/keys/signTransaction'

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}` as Hex
const TO: Address = '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789'

/** Field values at the RLP boundaries: zero (empty string), one byte below and at 0x80, 55/56-byte strings. */
const cases: TransactionSerializableEIP1559[] = [
  {
    chainId: 1,
    type: 'eip1559',
    nonce: 0,
    gas: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    to: TO,
    data: '0x',
  },
  {
    chainId: 31337,
    type: 'eip1559',
    nonce: 127,
    gas: 21_000n,
    maxFeePerGas: 1n,
    maxPriorityFeePerGas: 0n,
    to: TO,
    data: '0x01',
  },
  {
    chainId: 31337,
    type: 'eip1559',
    nonce: 128,
    gas: 5_000_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000n,
    to: TO,
    data: '0x80',
  },
  {
    chainId: 8453,
    type: 'eip1559',
    nonce: 65_535,
    gas: 30_000_000n,
    maxFeePerGas: 10n ** 30n,
    maxPriorityFeePerGas: 10n ** 18n,
    to: TO,
    data: hex(55),
    value: 1n,
  },
  {
    chainId: 137,
    type: 'eip1559',
    nonce: 1_000_000,
    gas: 123_456n,
    maxFeePerGas: 3n,
    maxPriorityFeePerGas: 3n,
    to: TO,
    data: hex(56),
    value: 10n ** 20n,
  },
  {
    chainId: 31337,
    type: 'eip1559',
    nonce: 9,
    gas: 9_000_000n,
    maxFeePerGas: 7n,
    maxPriorityFeePerGas: 5n,
    to: TO,
    data: hex(70_000),
  },
  {
    chainId: 31337,
    type: 'eip1559',
    nonce: 3,
    gas: 1_000_000n,
    maxFeePerGas: 7n,
    maxPriorityFeePerGas: 5n,
    data: hex(300),
  },
]

describe('serializeEip1559Transaction', () => {
  it('encodes unsigned transactions byte for byte as viem serializeTransaction does', () => {
    for (const transaction of cases) {
      expect(`0x${serializeEip1559Transaction(transaction).toString('hex')}`).toBe(
        serializeTransaction(transaction),
      )
    }
  })

  it('encodes signed transactions (both parities, short r and s) byte for byte as viem does', () => {
    const signatures = [
      { r: 1n, s: 2n, yParity: 0 },
      { r: BigInt(hex(32)), s: BigInt(hex(32)), yParity: 1 },
      { r: BigInt(hex(31)), s: BigInt(hex(30)), yParity: 0 },
    ]
    for (const transaction of cases) {
      for (const signature of signatures) {
        expect(`0x${serializeEip1559Transaction(transaction, signature).toString('hex')}`).toBe(
          serializeTransaction(transaction, {
            r: numberToHex(signature.r, { size: 32 }),
            s: numberToHex(signature.s, { size: 32 }),
            yParity: signature.yParity,
          }),
        )
      }
    }
  })

  it('refuses what it does not encode: access lists and negative numbers', () => {
    const base = cases[2] as TransactionSerializableEIP1559
    expect(() =>
      serializeEip1559Transaction({ ...base, accessList: [{ address: TO, storageKeys: [] }] }),
    ).toThrow(/access lists/)
    expect(() => serializeEip1559Transaction({ ...base, gas: -1n })).toThrow(/negative/)
  })
})

describe('signTransaction', () => {
  it('signs the same bytes as viem account.signTransaction, and the signer recovers from them', async () => {
    for (let n = 0; n < 5; n++) {
      const account = privateKeyToAccount(generatePrivateKey())
      for (const transaction of cases) {
        const signed = await signTransaction(account, transaction)
        expect(signed).toBe(await account.signTransaction(transaction))
        expect(await recoverTransactionAddress({ serializedTransaction: signed })).toBe(account.address)
        expect(parseTransaction(signed).data ?? '0x').toBe(transaction.data)
      }
    }
  })
})
