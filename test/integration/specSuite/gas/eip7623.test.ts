import { type Address, encodeFunctionData, type Hex, hexToBigInt, parseAbi } from 'viem'
import { entryPoint08Abi, toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getSharedTestService } from '../../../helpers/sharedTestService'
import { hex } from '../../bundler/bundlerTestKit'
import { createMempoolRuleKit, type MempoolRuleKit, type RpcOperation } from '../harness/mempoolRuleKit'

/**
 * The ERC-4337 test suite's tests/single/gas/test_eip_7623.py (eth-infinitism/bundler-spec-tests) on EntryPoint
 * v0.8: under EIP-7623 a transaction's calldata costs at least 10 gas a token, and a bundler charges only the
 * validation and 10 % of the call gas limit as used, so preVerificationGas must cover the rest of a large operation.
 * A wallet of our own plays the suite's SimpleWallet (its deposit on the EntryPoint pays the prefund). On the
 * worker's shared service; state cleared before each scenario.
 */
let kit: MempoolRuleKit

beforeAll(async () => {
  kit = createMempoolRuleKit(await getSharedTestService())
}, 120_000)
beforeEach(() => kit.clearState())

/** The suite's deploy_wallet_contract: a wallet with 2 ETH deposited for it on the EntryPoint. */
async function deployWallet() {
  const wallet = await kit.deploy('SpecWallet', [], 0n)
  await kit.transact(
    kit.entryPoint,
    2n * 10n ** 18n,
    encodeFunctionData({
      abi: parseAbi(['function depositTo(address account) payable']),
      functionName: 'depositTo',
      args: [wallet.address],
    }),
  )
  return wallet
}

/** Whether handleOps with `op` alone succeeds (an eth_call with 10M gas, as the suite's find_min calls it). */
async function handleOpsSucceeds(op: RpcOperation): Promise<boolean> {
  const quantity = (field: string) => hexToBigInt(op[field] as Hex)
  const packed = toPackedUserOperation({
    sender: op.sender as Address,
    nonce: quantity('nonce'),
    callData: op.callData as Hex,
    callGasLimit: quantity('callGasLimit'),
    verificationGasLimit: quantity('verificationGasLimit'),
    preVerificationGas: quantity('preVerificationGas'),
    maxFeePerGas: quantity('maxFeePerGas'),
    maxPriorityFeePerGas: quantity('maxPriorityFeePerGas'),
    signature: op.signature as Hex,
  } as UserOperation<'0.8'>)
  try {
    await kit.chain.publicClient.call({
      account: kit.chain.executor.address,
      to: kit.entryPoint,
      gas: 10_000_000n,
      data: encodeFunctionData({
        abi: entryPoint08Abi,
        functionName: 'handleOps',
        args: [[packed], kit.entryPoint],
      }),
    })
    return true
  } catch {
    return false
  }
}

/** The suite's with_min_validation_gas: the least verificationGasLimit (1 to 200000) handleOps accepts. */
async function withMinValidationGas(op: RpcOperation): Promise<RpcOperation> {
  let low = 1n
  let high = 200_000n
  const withLimit = (limit: bigint) => ({ ...op, verificationGasLimit: hex(limit) })
  if (!(await handleOpsSucceeds(withLimit(high)))) throw new Error(`${high} verification gas is not enough`)
  while (low < high) {
    const mid = (low + high) / 2n
    if (await handleOpsSucceeds(withLimit(mid))) high = mid
    else low = mid + 1n
  }
  return withLimit(low)
}

/** The suite's operation: the wallet wastes its call gas; `extraBytes` 0xff bytes follow its callData. */
async function buildOperation(callGasLimit: bigint, extraBytes: number): Promise<RpcOperation> {
  const wallet = await deployWallet()
  return kit.buildOperation({
    sender: wallet.address,
    callData: `${wallet.encode('wasteGas')}${'ff'.repeat(extraBytes)}`,
    callGasLimit: hex(callGasLimit),
    preVerificationGas: hex(42_000n),
    signature: '0x',
  })
}

describe('test_eip_7623.py', () => {
  it('test_normal_calldata: a small operation with 42000 preVerificationGas and the least verification gas is accepted', async () => {
    const op = await withMinValidationGas(await buildOperation(10_000n, 0))
    const reply = await kit.send(op)
    expect(reply.error?.message ?? null).toBeNull()
    expect(reply.result).toMatch(/^0x[0-9a-f]{64}$/)
  }, 60_000)

  it('test_huge_calldata_failed: 1000 more calldata bytes need more than 42000 preVerificationGas (-32602)', async () => {
    const op = await withMinValidationGas(await buildOperation(10_000n, 1000))
    const reply = await kit.send(op)
    expect(reply.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('preVerificationGas'),
    })
  }, 60_000)

  it('test_huge_calldata_with_callgas: 10 % of a 1M call gas limit does not pay for them either (-32602)', async () => {
    const op = await withMinValidationGas(await buildOperation(1_000_000n, 1000))
    const reply = await kit.send(op)
    expect(reply.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('preVerificationGas'),
    })
  }, 60_000)

  it("test_estimate_huge_calldata: the estimate's preVerificationGas and verificationGasLimit make it acceptable", async () => {
    const op = await buildOperation(1_000_000n, 1000)
    const estimate = await kit.call('eth_estimateUserOperationGas', [op, kit.entryPoint])
    expect(estimate.error?.message ?? null).toBeNull()
    const reply = await kit.send({
      ...op,
      verificationGasLimit: estimate.result.verificationGasLimit,
      preVerificationGas: estimate.result.preVerificationGas,
    })
    expect(reply.error?.message ?? null).toBeNull()
    expect(reply.result).toMatch(/^0x[0-9a-f]{64}$/)
  }, 60_000)
})
