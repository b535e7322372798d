import { encodeFunctionData, type Hex } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { testTokenAbi } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, createSimpleAccountClient, randomAddress } from '../bundler/bundlerTestKit'
import { LIMITS } from './explainTestKit'

/**
 * An operation mined before the service (and its anvil) restarted: anvil loads the saved chain, its blocks and
 * transactions, but holds no state of those blocks, so it cannot re-run the bundle transaction. An operation mined
 * after the restart is traced as usual.
 */
let service: TestService
beforeAll(async () => {
  service = await startTestService()
}, 60_000)
afterAll(async () => service?.dispose())

async function trace(userOpHash: Hex) {
  const { status, body } = await callBundler(service, 'opstation_traceUserOperation', [userOpHash])
  return { status, ...body }
}

it("explains an operation mined before a restart from its bundle's receipt (events and gas), where the node can no longer re-run the transaction; one mined after it is traced whole", async () => {
  const token = service.chain!.addresses.tokens[0]!.address
  const approve = (amount: bigint) =>
    encodeFunctionData({ abi: testTokenAbi, functionName: 'approve', args: [randomAddress(), amount] })
  // A new account on each service: a client speaks to the service's URL, which a restart changes.
  const send = async (amount: bigint) => {
    const { bundlerClient } = await createSimpleAccountClient(service, 10n ** 18n, '0.7')
    const hash = await bundlerClient.sendUserOperation({
      calls: [{ to: token, data: approve(amount) }],
      ...LIMITS,
    })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    return { hash, receipt }
  }
  const before = await send(7n)

  const { dataDir } = service
  await service.close()
  service = await startTestService({ dataDir })
  const transaction = await service.chain!.publicClient.getTransaction({
    hash: before.receipt.receipt.transactionHash,
  })
  expect(transaction.hash).toBe(before.receipt.receipt.transactionHash)

  const told = await trace(before.hash)
  expect(told.status).toBe(200)
  expect(told.result).toMatchObject({
    status: 'mined',
    transactionHash: before.receipt.receipt.transactionHash,
    phases: [],
    calls: null,
    balanceChanges: [],
    gas: {
      actualGasUsed: before.receipt.actualGasUsed.toString(),
      actualGasCost: before.receipt.actualGasCost.toString(),
    },
    notes: [
      expect.stringMatching(/^the node can no longer re-run its bundle transaction 0x[0-9a-f]{64} \(.+\)/),
    ],
  })
  // The operation's own events, as a trace tells them: its account's deployment (its first operation), its Approval
  // (the execution), then the EntryPoint's UserOperationEvent.
  expect(told.result.events.map((e: { contract: string | null; name: string | null }) => e.name)).toEqual([
    'AccountDeployed',
    'Approval',
    'UserOperationEvent',
  ])
  expect(told.result.events[1].args).toMatchObject({ value: '7' })

  // Mined after the restart: traced whole, as before.
  const after = await send(8n)
  const traced = await trace(after.hash)
  expect(traced.result).toMatchObject({
    status: 'mined',
    phases: expect.arrayContaining([expect.anything()]),
  })
  expect(traced.result.calls).not.toBe(null)
  expect(traced.result.notes.join(' ')).not.toMatch(/can no longer re-run/)
}, 90_000)
