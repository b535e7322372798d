import { toSimpleSmartAccount } from 'permissionless/accounts'
import { http, numberToHex, zeroAddress } from 'viem'
import {
  createBundlerClient,
  entryPoint07Address,
  formatUserOperationRequest,
  type UserOperation,
} from 'viem/account-abstraction'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, it } from 'vitest'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { callBundler, publicClientOf, randomAddress } from '../bundler/bundlerTestKit'
import { callPaymaster, createDapp, sponsoredContext } from './paymasterTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

const LIMITS = ['callGasLimit', 'verificationGasLimit', 'preVerificationGas'] as const

/**
 * A new SimpleAccount v0.7 operation prepared without gas limits or paymaster, and the request that asks
 * pm_getPaymasterData for it the way viem's getPaymasterData does when a client gives it no stub data
 * (@biconomy/abstractjs's paymaster client): the three limits 0x0, no paymaster limits.
 */
async function prepareRequest(context: unknown) {
  const client = publicClientOf(service)
  const account = await toSimpleSmartAccount({
    client,
    owner: privateKeyToAccount(generatePrivateKey()),
    entryPoint: { address: entryPoint07Address, version: '0.7' },
  })
  const bundlerClient = createBundlerClient({
    client,
    account,
    transport: http(service.info().bundlerUrl),
    pollingInterval: 50,
  })
  const prepared = await bundlerClient.prepareUserOperation({
    calls: [{ to: randomAddress(), value: 0n }],
    parameters: ['factory', 'fees', 'nonce', 'signature'],
  })
  const wire = {
    ...formatUserOperationRequest(prepared),
    ...Object.fromEntries(LIMITS.map((f) => [f, '0x0'])),
  }
  const params = [wire, entryPoint07Address, numberToHex(service.chain!.chainId), context]
  return { account, bundlerClient, prepared, params }
}

describe('pm_getPaymasterData for an operation that carries no gas limits (no stub data before it)', () => {
  it('calculates and signs every limit with calculateGasLimits, answers them all, and the operation sent with them is mined', async () => {
    const { apiKey } = await createDapp(service)
    const { account, bundlerClient, prepared, params } = await prepareRequest(sponsoredContext())
    const { body } = await callPaymaster(service, apiKey, 'pm_getPaymasterData', params)
    expect(body.result.paymaster).toBe(service.chain!.addresses.verifyingPaymasterV07)
    for (const field of [...LIMITS, 'paymasterVerificationGasLimit', 'paymasterPostOpGasLimit'])
      expect(body.result[field]).toMatch(/^0x[0-9a-f]+$/)
    const op: UserOperation<'0.7'> = {
      ...prepared,
      paymaster: body.result.paymaster,
      paymasterData: body.result.paymasterData,
      paymasterVerificationGasLimit: BigInt(body.result.paymasterVerificationGasLimit),
      paymasterPostOpGasLimit: BigInt(body.result.paymasterPostOpGasLimit),
      callGasLimit: BigInt(body.result.callGasLimit),
      verificationGasLimit: BigInt(body.result.verificationGasLimit),
      preVerificationGas: BigInt(body.result.preVerificationGas),
    }
    const hash = await bundlerClient.sendUserOperation({
      ...op,
      signature: await account.signUserOperation(op),
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).not.toBe(zeroAddress)
  })

  it("the bundler's estimate of the operation carrying that signed data gives the limits the paymaster signed (viem keeps only the paymaster fields of the answer and asks the bundler for the others)", async () => {
    const { apiKey } = await createDapp(service)
    // Until a paymaster signature holds a zero byte (about one in four does): such bytes must not lower the
    // bundler's preVerificationGas below the one the paymaster signed.
    let signatureWithZeroByte = false
    for (let i = 0; i < 40 && !signatureWithZeroByte; i++) {
      const { params } = await prepareRequest(sponsoredContext())
      const { body } = await callPaymaster(service, apiKey, 'pm_getPaymasterData', params)
      const { paymaster, paymasterData, paymasterVerificationGasLimit, paymasterPostOpGasLimit } = body.result
      const withPaymaster = {
        ...(params[0] as object),
        paymaster,
        paymasterData,
        paymasterVerificationGasLimit,
        paymasterPostOpGasLimit,
      }
      const estimate = await callBundler(service, 'eth_estimateUserOperationGas', [
        withPaymaster,
        entryPoint07Address,
      ])
      for (const field of LIMITS) expect(estimate.body.result[field]).toBe(body.result[field])
      signatureWithZeroByte = /^(..)*00/.test((paymasterData as string).slice(-130))
    }
    expect(signatureWithZeroByte).toBe(true)
  })

  it('signs the limits an operation carries as given (the ERC-7677 flow, after stub data and estimation) and answers only the paymaster fields', async () => {
    const { apiKey } = await createDapp(service)
    const { params } = await prepareRequest({ mode: 'SPONSORED' })
    const given = {
      ...(params[0] as object),
      callGasLimit: '0x30000',
      verificationGasLimit: '0x60000',
      preVerificationGas: '0xc000',
      paymaster: service.chain!.addresses.verifyingPaymasterV07,
      paymasterVerificationGasLimit: '0xea60',
      paymasterPostOpGasLimit: '0x9c40',
    }
    const { body } = await callPaymaster(service, apiKey, 'pm_getPaymasterData', [given, ...params.slice(1)])
    expect(body.result).toMatchObject({
      paymasterVerificationGasLimit: '0xea60',
      paymasterPostOpGasLimit: '0x9c40',
    })
    for (const field of LIMITS) expect(body.result).not.toHaveProperty(field)
  })
})
