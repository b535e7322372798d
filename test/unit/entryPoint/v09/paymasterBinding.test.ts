import { concat, type Hex, numberToHex, size } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import type { Chain } from '../../../../src/main/service/chain/types'
import { entryPointV08, entryPointV09, type PaymasterChoice } from '../../../../src/main/service/entryPoint'

const sender = '0x9d7d81b4eecdf15ceb00ba42284ea36f8be68b90'
const paymasterId = '0x2222222222222222222222222222222222222222'
const verifyingV09 = '0x3333333333333333333333333333333333333333'
const verifyingV08 = '0x4444444444444444444444444444444444444444'
const MAGIC = '22e325a297439656'

/** What the binding reads of a chain: its id, the paymaster key and the paymasters' addresses. */
const chain = {
  chainId: 31337,
  paymasterSigner: privateKeyToAccount(generatePrivateKey()),
  addresses: new Proxy(
    { verifyingPaymasterV09: verifyingV09, verifyingPaymasterV08: verifyingV08 },
    { get: (target, key) => (target as Record<string, string>)[key as string] ?? `0x${'5'.repeat(40)}` },
  ),
} as unknown as Chain

const choice: PaymasterChoice = { kind: 'verifying', paymasterId, validUntil: 1_000, validAfter: 0 }
const gas = {
  callGasLimit: 100_000n,
  verificationGasLimit: 200_000n,
  preVerificationGas: 50_000n,
  paymasterVerificationGasLimit: 60_000n,
  paymasterPostOpGasLimit: 40_000n,
}
const fees = { maxFeePerGas: 2n, maxPriorityFeePerGas: 1n }
const request = { sender, nonce: '0x0', callData: '0x', signature: '0x' }
/** paymasterId ‖ validUntil ‖ validAfter, the verifying paymaster's fields. */
const fieldsOf = (until: number, after = 0): Hex =>
  concat([paymasterId, numberToHex(until, { size: 6 }), numberToHex(after, { size: 6 })])

describe("the v0.9 paymaster binding's paymasterSignature", () => {
  it('answers the signature in paymasterSignature when the request has that field, and the userOpHash leaves it out', async () => {
    const op = entryPointV09.paymaster.bind({ ...request, paymasterSignature: '0x' })
    const stub = await op.stub(chain, choice)
    expect(stub.fields?.paymasterData).toBe(fieldsOf(1_000))
    expect(size(stub.fields!.paymasterSignature!)).toBe(65)
    const signed = await op.sign(chain, choice, gas, fees)
    expect(signed.fields?.paymasterData).toBe(stub.fields?.paymasterData)
    expect(signed.paymasterAndData.endsWith(`0041${MAGIC}`)).toBe(true)
    // The hash the account signs with the stub is the hash of the final operation.
    expect(op.computeUserOpHash(chain, gas, fees, signed)).toBe(op.computeUserOpHash(chain, gas, fees, stub))
  })

  it('without the field, ends paymasterData with the signature as v0.8 does (clients that hash it whole)', async () => {
    const op = entryPointV09.paymaster.bind(request)
    const signed = await op.sign(chain, choice, gas, fees)
    expect(signed.fields?.paymasterSignature).toBeUndefined()
    expect(size(signed.fields!.paymasterData)).toBe(32 + 65)
    expect(signed.paymasterAndData.endsWith(MAGIC)).toBe(false)
    // v0.8 signs the same way whatever the request has.
    const v08 = await entryPointV08.paymaster.bind(request).sign(chain, choice, gas, fees)
    expect(size(v08.fields!.paymasterData)).toBe(32 + 65)
  })

  it("reads back the window of its own paymaster's data the operation carries (v0.9 only), so pm_getPaymasterData keeps the stub's", () => {
    const carrying = (module: typeof entryPointV09, paymaster: string) =>
      module.paymaster.bind({
        ...request,
        paymaster,
        paymasterVerificationGasLimit: '0xea60',
        paymasterPostOpGasLimit: '0x9c40',
        paymasterData: fieldsOf(1_234, 5),
        paymasterSignature: `0x${'11'.repeat(65)}`,
      })
    expect(carrying(entryPointV09, verifyingV09).carriedWindow(chain, 'verifying')).toEqual({
      validUntil: 1_234,
      validAfter: 5,
    })
    expect(carrying(entryPointV09, `0x${'6'.repeat(40)}`).carriedWindow(chain, 'verifying')).toBeNull()
    const v08 = entryPointV08.paymaster.bind({
      ...request,
      paymaster: verifyingV08,
      paymasterVerificationGasLimit: '0xea60',
      paymasterPostOpGasLimit: '0x9c40',
      paymasterData: fieldsOf(1_234, 5),
      eip7702Auth: undefined,
    })
    expect(v08.carriedWindow(chain, 'verifying')).toBeNull()
  })
})
