import { encodeFunctionData, parseEther } from 'viem'
import { InsufficientPrefundError, UserOperationExecutionError } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { createSimpleAccountClient, randomAddress } from './bundlerTestKit'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

describe('viem bundler client with a permissionless SimpleAccount (EntryPoint v0.6), safe mode', () => {
  it('deploys the account through initCode, makes a call, and the receipt comes back', async () => {
    const { account, bundlerClient, client } = await createSimpleAccountClient(service)
    const to = randomAddress()
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 12345n }] })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.userOpHash).toBe(hash)
    expect(receipt.sender).toBe(account.address)
    expect(receipt.receipt.status).toBe('success')
    expect(await client.getBalance({ address: to })).toBe(12345n)
    expect(await client.getCode({ address: account.address })).not.toBe(undefined)
  })

  it('sends a batch of calls in one UserOperation on an already deployed account', async () => {
    const { bundlerClient, client } = await createSimpleAccountClient(service)
    await bundlerClient.waitForUserOperationReceipt({
      hash: await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] }),
    })
    const token = service.chain!.addresses.tokens[0]!.address
    const [a, b] = [randomAddress(), randomAddress()]
    // SimpleAccount v0.6 executeBatch(address[], bytes[]) carries no values: two token mints.
    const mint = (to: `0x${string}`, amount: bigint) =>
      encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] })
    const hash = await bundlerClient.sendUserOperation({
      calls: [
        { to: token, data: mint(a, 7n) },
        { to: token, data: mint(b, 1000n) },
      ],
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    const balanceOf = (owner: `0x${string}`) =>
      client.readContract({ address: token, abi: testTokenAbi, functionName: 'balanceOf', args: [owner] })
    expect(await balanceOf(a)).toBe(7n)
    expect(await balanceOf(b)).toBe(1000n)
  })

  it('fails with viem InsufficientPrefundError (AA21) when the account cannot pay', async () => {
    const { bundlerClient, account } = await createSimpleAccountClient(service, 0n)
    const gas = {
      callGasLimit: 100_000n,
      verificationGasLimit: 400_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: parseEther('0.00000001'),
      maxPriorityFeePerGas: 1_000_000_000n,
    }
    const error = await bundlerClient
      .sendUserOperation({ account, calls: [{ to: randomAddress(), value: 1n }], ...gas })
      .catch((err) => err)
    expect(error).toBeInstanceOf(UserOperationExecutionError)
    expect(error.walk((e: unknown) => e instanceof InsufficientPrefundError)).toBeInstanceOf(
      InsufficientPrefundError,
    )
    expect(error.details).toMatch(/AA21 didn't pay prefund/)
  })

  it('fails with viem InvalidAccountNonceError (AA25) for a nonce the account has already used', async () => {
    const { bundlerClient } = await createSimpleAccountClient(service)
    const first = await bundlerClient.waitForUserOperationReceipt({
      hash: await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] }),
    })
    const error = await bundlerClient
      .sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }], nonce: first.nonce })
      .catch((err) => err)
    expect(error).toBeInstanceOf(UserOperationExecutionError)
    // viem's InvalidAccountNonceError (viem does not export the class from viem/account-abstraction).
    const cause = error.walk((e: { name?: string }) => e.name === 'InvalidAccountNonceError')
    expect(cause?.name).toBe('InvalidAccountNonceError')
    expect(error.details).toMatch(/AA25 invalid account nonce/)
  })

  it('estimates limits an operation never runs out of, with little left unused', async () => {
    const { bundlerClient } = await createSimpleAccountClient(service)
    const prepared = await bundlerClient.prepareUserOperation({ calls: [{ to: randomAddress(), value: 5n }] })
    const signature = await bundlerClient.account!.signUserOperation(prepared as never)
    const hash = await bundlerClient.sendUserOperation({ ...prepared, signature } as never)
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
    expect(receipt.success).toBe(true)
    const limits = prepared.callGasLimit + prepared.verificationGasLimit + prepared.preVerificationGas
    expect(receipt.actualGasUsed).toBeLessThanOrEqual(limits)
    // The deployment op: the estimate leaves at most 25 % of what it granted unused.
    expect(Number(receipt.actualGasUsed) / Number(limits)).toBeGreaterThan(0.75)
  })
})
