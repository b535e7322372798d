import type { Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import { entryPointV08, entryPointV09 } from '../../../../src/main/service/entryPoint'
import { packUserOperation } from '../../../../src/main/service/entryPoint/v07/packUserOperation'
import {
  PAYMASTER_SIGNATURE_MAGIC,
  paymasterAndDataForHash,
  splitPaymasterSignature,
} from '../../../../src/main/service/entryPoint/v09/paymasterSignature'
import { RpcError } from '../../../../src/main/service/errors'

const PAYMASTER = '0x3333333333333333333333333333333333333333'
const wire = {
  sender: '0x1111111111111111111111111111111111111111',
  nonce: '0x7',
  factory: '0x2222222222222222222222222222222222222222',
  factoryData: '0xdeadbeef',
  callData: '0xb61d27f6',
  callGasLimit: '0x30d40',
  verificationGasLimit: '0x186a0',
  preVerificationGas: '0xc350',
  maxFeePerGas: '0x3b9aca00',
  maxPriorityFeePerGas: '0x5f5e100',
  paymaster: PAYMASTER,
  paymasterVerificationGasLimit: '0xea60',
  paymasterPostOpGasLimit: '0x7530',
  paymasterData: '0x0102030405',
  signature: `0x${'ab'.repeat(65)}`,
}
const staticFields = `${PAYMASTER}0000000000000000000000000000ea6000000000000000000000000000007530`
const hashOn1337 = (fields: Record<string, unknown>) =>
  entryPointV09.computeUserOpHash(entryPointV09.userOperationSchema.parse({ ...wire, ...fields }), 1337)

describe('EntryPoint v0.9 paymasterSignature', () => {
  it('is packed after paymasterData as signature, its 2-byte length and the magic', () => {
    const op = entryPointV09.userOperationSchema.parse({ ...wire, paymasterSignature: '0xefefef' })
    expect(packUserOperation(op).paymasterAndData).toBe(
      `${staticFields}0102030405efefef0003${PAYMASTER_SIGNATURE_MAGIC}`,
    )
  })

  it("leaves the signature and its length out of the userOpHash, as the release EntryPoint's getUserOpHash does", () => {
    // Both read from getUserOpHash of 0x4337…D009 (the v0.9.0 creation code) on a chain 1337 anvil.
    const withSignature = '0x2c1b3be7aeaa4970627f8b5d3bb66c6630ba54b04b8a38d183fe84e3c55b4a83'
    expect(hashOn1337({ paymasterSignature: `0x${'cd'.repeat(65)}` })).toBe(withSignature)
    expect(hashOn1337({ paymasterSignature: '0xefefef' })).toBe(withSignature)
    expect(hashOn1337({})).toBe('0x3b1ffb100badd10e4dcf5708547456449c96d281d2c59a94a2ce477c3812cee8')
  })

  it('reads a signature at the end of paymasterAndData back as its own field, and hashes what precedes it with the magic', () => {
    const packed = `${staticFields}0102030405aabb0002${PAYMASTER_SIGNATURE_MAGIC}` as Hex
    expect(splitPaymasterSignature(packed)).toEqual({
      data: `${staticFields}0102030405`,
      signature: '0xaabb',
    })
    expect(paymasterAndDataForHash(packed)).toBe(`${staticFields}0102030405${PAYMASTER_SIGNATURE_MAGIC}`)
    // No magic: all of it is paymasterData.
    expect(splitPaymasterSignature(`${staticFields}0102030405` as Hex).signature).toBeNull()
  })

  it('refuses with -32602 a signature length that reaches into the paymaster gas limits (InvalidPaymasterSignatureLength)', () => {
    const packed = `${staticFields}00ff${PAYMASTER_SIGNATURE_MAGIC}` as Hex
    const error = (() => {
      try {
        splitPaymasterSignature(packed)
      } catch (err) {
        return err
      }
    })()
    expect(error).toBeInstanceOf(RpcError)
    expect((error as RpcError).rpcCode).toBe(-32602)
  })

  it('is refused by v0.8 and without a paymaster, and tells v0.9 operations apart', () => {
    expect(() => entryPointV08.userOperationSchema.parse({ ...wire, paymasterSignature: '0xaa' })).toThrow(
      /takes no paymasterSignature/,
    )
    const {
      paymaster: _,
      paymasterVerificationGasLimit,
      paymasterPostOpGasLimit,
      paymasterData,
      ...bare
    } = wire
    expect(() => entryPointV09.userOperationSchema.parse({ ...bare, paymasterSignature: '0xaa' })).toThrow(
      /paymasterSignature without a paymaster/,
    )
    expect(entryPointV09.recognizes({ ...wire, paymasterSignature: '0xaa' })).toBe(true)
    expect(entryPointV08.recognizes({ ...wire, paymasterSignature: '0xaa' })).toBe(false)
  })
})
