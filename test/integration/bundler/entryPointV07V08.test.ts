import { encodeFunctionData, parseEther } from 'viem'
import { InsufficientPrefundError, UserOperationExecutionError } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, createSimpleAccountClient, randomAddress } from './bundlerTestKit'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service?.dispose()
})

describe.each(['0.7', '0.8'] as const)(
  'viem bundler client with a permissionless SimpleAccount on EntryPoint v%s, safe mode',
  (version) => {
    it('deploys the account through factory/factoryData, makes a call, and the receipt comes back', async () => {
      const { account, bundlerClient, client } = await createSimpleAccountClient(service, 10n ** 18n, version)
      const to = randomAddress()
      const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 12345n }] })
      const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
      expect(receipt.success).toBe(true)
      expect(receipt.userOpHash).toBe(hash)
      expect(receipt.sender).toBe(account.address)
      expect(receipt.entryPoint.toLowerCase()).toBe(account.entryPoint.address.toLowerCase())
      expect(await client.getBalance({ address: to })).toBe(12345n)
      expect(await client.getCode({ address: account.address })).not.toBe(undefined)

      const byHash = await bundlerClient.getUserOperation({ hash })
      expect(byHash.entryPoint.toLowerCase()).toBe(account.entryPoint.address.toLowerCase())
      expect(byHash.userOperation.sender).toBe(account.address)
      expect(byHash.userOperation.factory).toBeDefined()
      expect(byHash.transactionHash).toBe(receipt.receipt.transactionHash)
      const status = await callBundler(service, 'biconomy_getUserOperationStatus', [hash])
      expect(status.body.result).toMatchObject({
        state: 'CONFIRMED',
        transactionHash: receipt.receipt.transactionHash,
      })
    })

    it('sends a batch of calls in one UserOperation on an already deployed account', async () => {
      const { bundlerClient, client } = await createSimpleAccountClient(service, 10n ** 18n, version)
      await bundlerClient.waitForUserOperationReceipt({
        hash: await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] }),
      })
      const token = service.chain!.addresses.tokens[0]!.address
      const [a, b] = [randomAddress(), randomAddress()]
      const mint = (to: `0x${string}`, amount: bigint) =>
        encodeFunctionData({ abi: testTokenAbi, functionName: 'mint', args: [to, amount] })
      const hash = await bundlerClient.sendUserOperation({
        calls: [
          { to: token, data: mint(a, 7n) },
          { to: token, data: mint(b, 1000n), value: 0n },
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
      const { bundlerClient, account } = await createSimpleAccountClient(service, 0n, version)
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
    })

    it('fails with viem InvalidAccountNonceError (AA25) for a nonce the account has already used', async () => {
      const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, version)
      const first = await bundlerClient.waitForUserOperationReceipt({
        hash: await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] }),
      })
      const error = await bundlerClient
        .sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }], nonce: first.nonce })
        .catch((err) => err)
      // viem's InvalidAccountNonceError (viem does not export the class from viem/account-abstraction).
      const cause = error.walk((e: { name?: string }) => e.name === 'InvalidAccountNonceError')
      expect(cause?.name).toBe('InvalidAccountNonceError')
      expect(error.details).toMatch(/AA25 invalid account nonce/)
    })

    it('estimates all four limits so the operation never runs out, with little left unused', async () => {
      const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, version)
      const prepared = await bundlerClient.prepareUserOperation({
        calls: [{ to: randomAddress(), value: 5n }],
      })
      expect(
        (prepared as { paymasterVerificationGasLimit?: bigint }).paymasterVerificationGasLimit ?? 0n,
      ).toBe(0n)
      const signature = await bundlerClient.account!.signUserOperation(prepared as never)
      const hash = await bundlerClient.sendUserOperation({ ...prepared, signature } as never)
      const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
      expect(receipt.success).toBe(true)
      const limits = prepared.callGasLimit + prepared.verificationGasLimit + prepared.preVerificationGas
      expect(receipt.actualGasUsed).toBeLessThanOrEqual(limits)
      expect(Number(receipt.actualGasUsed) / Number(limits)).toBeGreaterThan(0.7)
    })

    it('keeps each EntryPoint in its own mempool (manual bundling: dumpMempool per EntryPoint, one bundle each)', async () => {
      const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, version)
      const v06 = await createSimpleAccountClient(service)
      expect((await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])).body.result).toBe('ok')
      try {
        const hash = await bundlerClient.sendUserOperation({ calls: [{ to: randomAddress(), value: 1n }] })
        const hash06 = await v06.bundlerClient.sendUserOperation({
          calls: [{ to: randomAddress(), value: 1n }],
        })
        const entryPoint = bundlerClient.account!.entryPoint.address
        const mine = (await callBundler(service, 'debug_bundler_dumpMempool', [entryPoint])).body.result
        expect(mine.map((op: { sender: string }) => op.sender)).toEqual([bundlerClient.account!.address])
        expect(mine[0].factory).toBeDefined()
        const all = (await callBundler(service, 'debug_bundler_dumpMempool', [])).body.result
        expect(all).toHaveLength(2)
        await callBundler(service, 'debug_bundler_sendBundleNow', [])
        const [receipt, receipt06] = await Promise.all([
          bundlerClient.waitForUserOperationReceipt({ hash }),
          v06.bundlerClient.waitForUserOperationReceipt({ hash: hash06 }),
        ])
        expect(receipt.success && receipt06.success).toBe(true)
        expect(receipt.receipt.transactionHash).not.toBe(receipt06.receipt.transactionHash)
      } finally {
        await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
      }
    })

    it('rejects an operation sent to another EntryPoint than its version names, with -32602', async () => {
      const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, version)
      const prepared = await bundlerClient.prepareUserOperation({
        calls: [{ to: randomAddress(), value: 1n }],
      })
      // The v0.6 EntryPoint takes initCode/paymasterAndData: a v0.7 operation does not parse there.
      const response = await fetch(service.info().bundlerUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'eth_sendUserOperation',
          params: [
            {
              sender: prepared.sender,
              nonce: '0x0',
              callData: prepared.callData,
              callGasLimit: '0x1',
              verificationGasLimit: '0x1',
              preVerificationGas: '0x1',
              maxFeePerGas: '0x1',
              maxPriorityFeePerGas: '0x1',
              signature: '0x',
            },
            '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
          ],
        }),
      })
      const body = (await response.json()) as { error: { code: number; message: string } }
      expect(body.error.code).toBe(-32602)
      expect(body.error.message).toMatch(/params\[0\]\.initCode/)
    })
  },
)
