import { encodeAbiParameters, getAddress, hashMessage, keccak256, recoverAddress, size, slice } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { SignableUserOperation } from '../../../src/main/service/entryPoint/v06/hashForPaymaster'
import {
  decodeVerifyingPaymasterAndData,
  encodeVerifyingPaymasterAndData,
  getVerifyingPaymasterHash,
  signVerifyingPaymasterAndData,
  VERIFYING_PAYMASTER_AND_DATA_SIZE,
} from '../../../src/main/service/entryPoint/v06/verifyingPaymasterAndData'

const op: SignableUserOperation = {
  sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
  nonce: 7n,
  initCode: '0x',
  callData: '0x0000189a',
  callGasLimit: 50_000n,
  verificationGasLimit: 100_000n,
  preVerificationGas: 48_000n,
  maxFeePerGas: 3_000_000_000n,
  maxPriorityFeePerGas: 1_000_000_000n,
}
const fields = {
  paymaster: '0x00000f79B7FaF42EEBAdbA19aCc07cD08Af44789',
  paymasterId: '0x95857bff0000000000000000000000000000000a',
  validUntil: 1_800_000_000,
  validAfter: 0,
} as const

describe('verifying paymaster paymasterAndData (VerifyingSingletonPaymaster v1.1.0)', () => {
  it('is 276 bytes: paymaster ‖ abi.encode(paymasterId, validUntil, validAfter, bytes signature) with the 0x80 offset', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    const data = await signVerifyingPaymasterAndData(op, { ...fields, chainId: 31337, signer })
    expect(size(data)).toBe(VERIFYING_PAYMASTER_AND_DATA_SIZE)
    expect(slice(data, 0, 20).toLowerCase()).toBe(fields.paymaster.toLowerCase())
    expect(BigInt(slice(data, 116, 148))).toBe(0x80n)
    expect(BigInt(slice(data, 148, 180))).toBe(65n)
  })

  it('decodes back to the fields it was encoded from', () => {
    const signature = `0x${'11'.repeat(64)}1b` as const
    const decoded = decodeVerifyingPaymasterAndData(encodeVerifyingPaymasterAndData({ ...fields, signature }))
    expect(decoded).toEqual({ ...fields, paymasterId: getAddress(fields.paymasterId), signature })
  })

  it('hashes the 14 words of getHash in order (sender … chainId, paymaster, paymasterId, validUntil, validAfter)', () => {
    const expected = keccak256(
      encodeAbiParameters(
        [
          'address',
          'uint256',
          'bytes32',
          'bytes32',
          'uint256',
          'uint256',
          'uint256',
          'uint256',
          'uint256',
          'uint256',
          'address',
          'address',
          'uint48',
          'uint48',
        ].map((type) => ({ type })),
        [
          op.sender,
          op.nonce,
          keccak256(op.initCode),
          keccak256(op.callData),
          op.callGasLimit,
          op.verificationGasLimit,
          op.preVerificationGas,
          op.maxFeePerGas,
          op.maxPriorityFeePerGas,
          31337n,
          fields.paymaster,
          fields.paymasterId,
          fields.validUntil,
          fields.validAfter,
        ],
      ),
    )
    expect(getVerifyingPaymasterHash(op, { ...fields, chainId: 31337 })).toBe(expected)
    expect(getVerifyingPaymasterHash(op, { ...fields, chainId: 1 })).not.toBe(expected)
  })

  it('signs with EIP-191 personal sign, so the signature recovers the signer from the prefixed hash', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    const data = await signVerifyingPaymasterAndData(op, { ...fields, chainId: 31337, signer })
    const { signature } = decodeVerifyingPaymasterAndData(data)
    const hash = getVerifyingPaymasterHash(op, { ...fields, chainId: 31337 })
    expect(await recoverAddress({ hash: hashMessage({ raw: hash }), signature })).toBe(signer.address)
  })
})
