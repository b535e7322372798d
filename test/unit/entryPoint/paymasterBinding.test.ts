import { type Hex, hexToBigInt, recoverAddress, size, slice } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it, vi } from 'vitest'
import type { Chain, ChainAddresses } from '../../../src/main/service/chain/types'
import {
  entryPointV06,
  entryPointV07,
  entryPointV08,
  entryPointV09,
  type PaymasterChoice,
} from '../../../src/main/service/entryPoint'
import { STUB_SIGNATURE } from '../../../src/main/service/entryPoint/paymaster/placeholderSignature'

const sender = '0x9d7d81b4eecdf15ceb00ba42284ea36f8be68b90'
/** The order of secp256k1: a signature's s at most half of it is low s (what OpenZeppelin's ECDSA accepts). */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const gas = { callGasLimit: 100n, verificationGasLimit: 10n, preVerificationGas: 1n }

describe("each EntryPoint module's paymaster side", () => {
  it('v0.6 costs the paymaster its prefund with a paymaster: (callGas + 3 × verificationGas + preVerificationGas) × maxFee', () => {
    const op = entryPointV06.paymaster.bind({ sender, nonce: '0x0', callData: '0x' })
    expect(op.maxCost(gas, 2n)).toBe(262n)
  })

  it('v0.7 costs it the sum of its five limits × maxFee', () => {
    const op = entryPointV07.paymaster.bind({ sender, nonce: '0x0', callData: '0x', signature: '0x' })
    expect(op.maxCost({ ...gas, paymasterVerificationGasLimit: 20n, paymasterPostOpGasLimit: 30n }, 2n)).toBe(
      322n,
    )
  })

  it('tells a v0.6 op only with gas limits to sign; a v0.7 op also needs the paymaster limits', () => {
    const limits = { callGasLimit: '0x1', verificationGasLimit: '0x1', preVerificationGas: '0x1' }
    const zero = { callGasLimit: '0x0', verificationGasLimit: '0x0', preVerificationGas: '0x0' }
    const v06 = (fields: object) =>
      entryPointV06.paymaster.bind({ sender, nonce: '0x0', callData: '0x', ...fields })
    const v07 = (fields: object) =>
      entryPointV07.paymaster.bind({ sender, nonce: '0x0', callData: '0x', signature: '0x', ...fields })
    expect(v06(limits).carriesGasLimits).toBe(true)
    expect(v06(zero).carriesGasLimits).toBe(false)
    expect(v06({}).carriesGasLimits).toBe(false)
    expect(v07(limits).carriesGasLimits).toBe(false)
    expect(
      v07({
        ...limits,
        paymaster: '0x1111111111111111111111111111111111111111',
        paymasterVerificationGasLimit: '0x1',
        paymasterPostOpGasLimit: '0x1',
      }).carriesGasLimits,
    ).toBe(true)
  })

  it('recognizes its own form: v0.6 initCode/paymasterAndData, v0.7 the packed fields, v0.8 an eip7702Auth', () => {
    const modules = [entryPointV08, entryPointV07, entryPointV06]
    const recognizer = (fields: Record<string, unknown>) => modules.find((m) => m.recognizes(fields))?.version
    expect(recognizer({ sender, initCode: '0x' })).toBe('0.6')
    expect(recognizer({ sender, paymasterAndData: '0x' })).toBe('0.6')
    expect(recognizer({ sender, factory: '0x1111111111111111111111111111111111111111' })).toBe('0.7')
    expect(recognizer({ sender, eip7702Auth: { address: sender } })).toBe('0.8')
    expect(recognizer({ sender, callData: '0x' })).toBeUndefined()
  })

  it('names its contracts as the deployment plan does', () => {
    const addresses = new Proxy({}, { get: (_, key) => `address of ${String(key)}` }) as ChainAddresses
    expect(entryPointV06.contracts({ addresses })).toEqual({
      entryPoint: { name: 'entryPoint', address: 'address of entryPoint' },
      verifying: { name: 'verifyingPaymaster', address: 'address of verifyingPaymaster' },
      token: { name: 'tokenPaymaster', address: 'address of tokenPaymaster' },
    })
    expect(entryPointV08.contracts({ addresses }).verifying).toEqual({
      name: 'verifyingPaymasterV08',
      address: 'address of verifyingPaymasterV08',
    })
  })

  it('charges a gas tank with its verifying paymaster event', () => {
    expect(entryPointV06.paymaster.chargeEvent.name).toBe('GasBalanceDeducted')
    expect(entryPointV07.paymaster.chargeEvent.name).toBe('GasTankCharged')
  })

  it('stub data of every version carries STUB_SIGNATURE and signs nothing: well-formed (low s, v 27/28, no zero byte) and never the paymaster signer', async () => {
    const signer = privateKeyToAccount(generatePrivateKey())
    const signed = { ...signer, sign: vi.fn(signer.sign), signMessage: vi.fn(signer.signMessage) }
    const chain = {
      chainId: 31337,
      paymasterSigner: signed,
      addresses: new Proxy({}, { get: () => `0x${'5'.repeat(40)}` }),
    } as unknown as Chain
    const choices: PaymasterChoice[] = [
      { kind: 'verifying', paymasterId: `0x${'2'.repeat(40)}`, validUntil: 1_000, validAfter: 0 },
      {
        kind: 'token',
        feeToken: `0x${'3'.repeat(40)}`,
        exchangeRate: 10n ** 18n,
        priceMarkup: 1_100_000,
        validUntil: 1_000,
        validAfter: 0,
      },
    ]
    const request = { sender, nonce: '0x0', callData: '0x', signature: '0x' }
    for (const module of [entryPointV06, entryPointV07, entryPointV08, entryPointV09])
      for (const choice of choices) {
        const stub = await module.paymaster.bind(request).stub(chain, choice)
        const data = stub.fields?.paymasterSignature ?? stub.fields?.paymasterData ?? stub.paymasterAndData
        expect(data.toLowerCase()).toContain(STUB_SIGNATURE.slice(2))
      }
    expect(signed.sign).not.toHaveBeenCalled()
    expect(signed.signMessage).not.toHaveBeenCalled()

    expect(size(STUB_SIGNATURE)).toBe(65)
    expect(STUB_SIGNATURE.slice(2).match(/../g)).not.toContain('00')
    expect([27n, 28n]).toContain(hexToBigInt(slice(STUB_SIGNATURE, 64)))
    expect(hexToBigInt(slice(STUB_SIGNATURE, 32, 64))).toBeLessThanOrEqual(SECP256K1_N / 2n)
    const recovered = await recoverAddress({ hash: `0x${'ab'.repeat(32)}` as Hex, signature: STUB_SIGNATURE })
    expect(recovered).not.toBe('0x0000000000000000000000000000000000000000')
    expect(recovered).not.toBe(signer.address)
  })
})
