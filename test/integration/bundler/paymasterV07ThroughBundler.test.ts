import { http } from 'viem'
import { createBundlerClient } from 'viem/account-abstraction'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Chain } from '../../../src/main/service/chain'
import { getSharedTestService } from '../../helpers/sharedTestService'
import type { TestService } from '../../helpers/startTestService'
import { createSimpleAccountClient, randomAddress } from './bundlerTestKit'
import { deployTestPaymasterV07 } from './ruleTestAccount'

let service: TestService

beforeAll(async () => {
  service = await getSharedTestService()
})

describe.each(['0.7', '0.8'] as const)(
  'a paymaster on EntryPoint v%s through the bundler, safe mode',
  (version) => {
    it("estimates the paymaster's verification and postOp limits, sponsors the operation, and types a reverting paymaster as AA33", async () => {
      const { account, client } = await createSimpleAccountClient(service, 0n, version)
      const paymaster = await deployTestPaymasterV07(service.chain as Chain, account.entryPoint.address)
      await paymaster.setMode(2)
      const stub = { paymaster: paymaster.address, paymasterData: '0x' as const }
      const bundlerClient = createBundlerClient({
        client,
        account,
        transport: http(service.info().bundlerUrl),
        pollingInterval: 50,
        paymaster: {
          getPaymasterStubData: async () => ({ ...stub, paymasterPostOpGasLimit: 100_000n }),
          getPaymasterData: async () => stub,
        },
      })
      const prepared = await bundlerClient.prepareUserOperation({
        calls: [{ to: randomAddress(), value: 0n }],
      })
      const limits = prepared as { paymasterVerificationGasLimit?: bigint; paymasterPostOpGasLimit?: bigint }
      expect(limits.paymasterVerificationGasLimit).toBeGreaterThan(0n)
      expect(limits.paymasterPostOpGasLimit).toBeGreaterThan(0n)
      const hash = await bundlerClient.sendUserOperation({
        calls: [{ to: randomAddress(), value: 0n }],
        paymasterVerificationGasLimit: limits.paymasterVerificationGasLimit,
        paymasterPostOpGasLimit: limits.paymasterPostOpGasLimit,
      } as never)
      const receipt = await bundlerClient.waitForUserOperationReceipt({ hash })
      expect(receipt.success).toBe(true)
      expect(receipt.paymaster?.toLowerCase()).toBe(paymaster.address.toLowerCase())
      // The account held no ETH: the paymaster paid.
      expect(await client.getBalance({ address: account.address })).toBe(0n)

      await paymaster.setMode(1)
      const error = await bundlerClient
        .sendUserOperation({ calls: [{ to: randomAddress(), value: 0n }] })
        .catch((err) => err)
      expect(error.walk((e: { name?: string }) => e.name === 'PaymasterFunctionRevertedError')?.name).toBe(
        'PaymasterFunctionRevertedError',
      )
      expect(error.details).toMatch(/AA33 reverted.*paymaster says no/)
    })
  },
)
