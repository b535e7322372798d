import { describe, expect, it } from 'vitest'
import type { ChainAddresses } from '../../../src/main/service/chain/types'
import { entryPointV06, entryPointV07, entryPointV08 } from '../../../src/main/service/entryPoint'

const sender = '0x9d7d81b4eecdf15ceb00ba42284ea36f8be68b90'
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
})
