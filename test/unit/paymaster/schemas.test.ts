import { describe, expect, it } from 'vitest'
import { entryPointV06 } from '../../../src/main/service/entryPoint'
import { PartialUserOperationSchema } from '../../../src/main/service/entryPoint/v06/userOperation'
import { Erc7677ContextSchema, PaymasterContextSchema } from '../../../src/main/service/paymaster/schemas'

const sender = '0x9d7d81b4eecdf15ceb00ba42284ea36f8be68b90'

describe('paymaster wire schemas', () => {
  it('reads the v0.6 op as the Biconomy SDK sends it (the one partial schema of the bundler and paymaster URLs): hex nonce and fees, decimal gas limits, no gas fields at all, hex in either case', () => {
    const op = PartialUserOperationSchema.parse({
      sender,
      nonce: '0x1f',
      initCode: '0x',
      callData: '0x0000189A',
      callGasLimit: '25000',
      maxFeePerGas: '0x59682f00',
      maxPriorityFeePerGas: 100,
      signature: '0x00',
    })
    expect(op).toEqual({
      sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
      nonce: 31n,
      initCode: '0x',
      callData: '0x0000189A',
      callGasLimit: 25000n,
      verificationGasLimit: undefined,
      preVerificationGas: undefined,
      maxFeePerGas: 1_500_000_000n,
      maxPriorityFeePerGas: 100n,
      paymasterAndData: '0x',
      signature: '0x00',
    })
  })

  it('takes null for a v0.6 field left out, as some SDKs send it', () => {
    const op = PartialUserOperationSchema.parse({
      sender,
      nonce: '0x1',
      initCode: null,
      callData: '0x',
      callGasLimit: null,
      paymasterAndData: null,
    })
    expect(op).toMatchObject({ initCode: '0x', callGasLimit: undefined, paymasterAndData: '0x' })
  })

  it('rejects a quantity that is not an integer and names the problem', () => {
    const result = PartialUserOperationSchema.safeParse({ sender, nonce: '1.5', callData: '0x' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('expected a non-negative integer (0x-hex or decimal)')
    expect(result.error?.issues[0]?.path).toEqual(['nonce'])
  })

  it('requires mode, accepts SPONSORSHIP as SPONSORED and defaults calculateGasLimits to true and expiry to 300 s', () => {
    expect(PaymasterContextSchema.safeParse({ calculateGasLimits: true }).error?.issues[0]?.message).toBe(
      'mode is required (SPONSORED or ERC20)',
    )
    expect(PaymasterContextSchema.parse({ mode: 'SPONSORSHIP' })).toMatchObject({
      mode: 'SPONSORED',
      calculateGasLimits: true,
      expiryDuration: 300,
    })
    const erc20 = PaymasterContextSchema.parse({
      mode: 'ERC20',
      calculateGasLimits: false,
      tokenInfo: { feeTokenAddress: '0xabc', tokenList: [] },
      sponsorshipInfo: { webhookData: { a: 1 }, smartAccountInfo: { name: 'BICONOMY', version: '2.0.0' } },
    })
    expect(erc20).toMatchObject({
      mode: 'ERC20',
      calculateGasLimits: false,
      feeTokenAddress: '0xabc',
      tokenList: [],
    })
    expect(erc20.webhookData).toEqual({ a: 1 })
  })

  it('treats a missing ERC-7677 context as SPONSORED', () => {
    expect(Erc7677ContextSchema.parse(undefined).mode).toBe('SPONSORED')
    expect(Erc7677ContextSchema.parse({ mode: 'erc20', tokenInfo: { feeTokenAddress: '0x1' } }).mode).toBe(
      'ERC20',
    )
  })

  it('answers the sponsor result with both MODE and mode, preVerificationGas as a decimal string and the limits as numbers', () => {
    expect(
      entryPointV06.paymaster.formatSponsorResult({
        mode: 'SPONSORED',
        paymasterAndData: '0x',
        callGasLimit: 108_848n,
        verificationGasLimit: 57_121n,
        preVerificationGas: 75_388n,
      }),
    ).toEqual({
      mode: 'SPONSORED',
      MODE: 'SPONSORED',
      paymasterAndData: '0x',
      preVerificationGas: '75388',
      verificationGasLimit: 57121,
      callGasLimit: 108848,
    })
  })

  it('sends webhooks the op with every quantity as 0x-hex and the ones it left out left out', () => {
    const op = entryPointV06.paymaster.bind({ sender, nonce: '5', callData: '0x', maxFeePerGas: '10' })
    expect(op.toWire()).toEqual({
      sender: '0x9d7D81B4eecDf15CEb00bA42284EA36f8BE68B90',
      nonce: '0x5',
      initCode: '0x',
      callData: '0x',
      maxFeePerGas: '0xa',
      paymasterAndData: '0x',
      signature: '0x',
    })
  })
})
