import { hashMessage, recoverAddress, size, slice, zeroAddress } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { SignableUserOperation } from '../../../src/main/service/entryPoint/v06/hashForPaymaster'
import {
  decodeTokenPaymasterAndData,
  getTokenPaymasterHash,
  PriceSource,
  signTokenPaymasterAndData,
  TOKEN_PAYMASTER_AND_DATA_SIZE,
  type TokenPaymasterFields,
} from '../../../src/main/service/entryPoint/v06/tokenPaymasterAndData'

const op: SignableUserOperation = {
  sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
  nonce: 1n,
  initCode: '0x',
  callData: '0x00004680',
  callGasLimit: 80_000n,
  verificationGasLimit: 150_000n,
  preVerificationGas: 52_000n,
  maxFeePerGas: 2_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}
const fields: TokenPaymasterFields = {
  paymaster: '0x00000f7365cA6C59A2C93719ad53d567ed49c14C',
  priceSource: PriceSource.externalExchangeRate,
  validUntil: 1_800_000_000,
  validAfter: 0,
  feeToken: '0x752fAc4b6F12E83c8be5571d2CDE2c00aEe1855C',
  oracleAggregator: zeroAddress,
  exchangeRate: 2_000_000_000n,
  priceMarkup: 1_100_000,
}

describe('token paymaster paymasterAndData (BiconomyTokenPaymaster layout)', () => {
  it('is 278 bytes: price source at byte 20, the 192-byte ABI block at 21..212, a raw 65-byte signature at 213', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    const data = await signTokenPaymasterAndData(op, { ...fields, chainId: 31337, signer })
    expect(size(data)).toBe(TOKEN_PAYMASTER_AND_DATA_SIZE)
    expect(slice(data, 20, 21)).toBe('0x00')
    expect(BigInt(slice(data, 21 + 4 * 32, 21 + 5 * 32))).toBe(2_000_000_000n)
    expect(BigInt(slice(data, 21 + 5 * 32, 213))).toBe(1_100_000n)
  })

  it('decodes to its fields and its signature recovers the signer (EIP-191 over getHash)', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    const decoded = decodeTokenPaymasterAndData(
      await signTokenPaymasterAndData(op, { ...fields, chainId: 31337, signer }),
    )
    const { signature, ...rest } = decoded
    expect(rest).toEqual(fields)
    const hash = getTokenPaymasterHash(op, { ...fields, chainId: 31337 })
    expect(await recoverAddress({ hash: hashMessage({ raw: hash }), signature })).toBe(signer.address)
  })

  it('changes the hash when the exchange rate or the markup changes', () => {
    const base = getTokenPaymasterHash(op, { ...fields, chainId: 31337 })
    expect(getTokenPaymasterHash(op, { ...fields, exchangeRate: 1n, chainId: 31337 })).not.toBe(base)
    expect(getTokenPaymasterHash(op, { ...fields, priceMarkup: 1_000_000, chainId: 31337 })).not.toBe(base)
  })
})
