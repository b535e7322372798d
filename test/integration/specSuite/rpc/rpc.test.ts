import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../../../helpers/startTestService'
import { expectFitsBundlerSpec } from '../harness/bundlerSpecSchema'
import { createMempoolRuleKit, type DeployedContract, type MempoolRuleKit } from '../harness/mempoolRuleKit'

/**
 * The RPC scenarios of the ERC-4337 test suite's tests/single/rpc/*.py (eth-infinitism/bundler-spec-tests) on
 * EntryPoint v0.8, with a wallet of our own playing the suite's SimpleWallet: what each method answers, and the codes
 * and words of its errors, and each result against the specification's schema (harness/bundlerSpecSchema.ts), as the
 * suite validates them. One service; manual bundling; state cleared before each scenario.
 */
let service: TestService
let kit: MempoolRuleKit

beforeAll(async () => {
  service = await startTestService()
  kit = createMempoolRuleKit(service)
}, 120_000)
afterAll(() => service?.dispose())
beforeEach(async () => {
  await kit.clearState()
  await kit.setManualBundling()
})

/** The suite's `userop` fixture: a fresh wallet's operation setting its state to 1111111, signed 0xface. */
async function buildWalletOperation(signature: Hex = '0xface') {
  const wallet = await kit.deploy('SpecWallet')
  const op = await kit.buildOperation({
    sender: wallet.address,
    callData: wallet.encode('setState', [1_111_111n]),
    signature,
  })
  return { wallet, op }
}

const stateOf = async (wallet: DeployedContract) => wallet.read('state')

describe('eth_sendUserOperation (test_eth_sendUserOperation.py)', () => {
  it('test_eth_sendUserOperation: accepts an operation, answers its hash, and the bundle runs it', async () => {
    const { wallet, op } = await buildWalletOperation()
    expect(await stateOf(wallet)).toBe(0n)
    const { result } = await kit.send(op)
    expect(result).toMatch(/^0x[0-9a-f]{64}$/)
    expectFitsBundlerSpec('eth_sendUserOperation', result)
    await kit.sendBundleNow()
    expect(await stateOf(wallet)).toBe(1_111_111n)
    expect(await kit.receiptOf(result)).toMatchObject({ userOpHash: result, success: true })
  }, 60_000)

  it("test_eth_sendUserOperation_revert: refuses an operation whose account reverts in validation with -32500 and the account's reason", async () => {
    const { wallet, op } = await buildWalletOperation('0xdead')
    const { error } = await kit.send(op)
    await kit.sendBundleNow()
    expect(await stateOf(wallet)).toBe(0n)
    expect(error).toMatchObject({
      code: -32500,
      message: expect.stringContaining('testWallet: dead signature'),
    })
  }, 60_000)

  it('test_eth_sendUserOperation_invalid_signature: refuses an operation whose account reports a signature failure with -32507', async () => {
    const { op } = await buildWalletOperation('0xdeaf')
    expect((await kit.send(op)).error).toMatchObject({ code: -32507 })
  }, 60_000)
})

describe('eth_estimateUserOperationGas (test_eth_estimateUserOperationGas.py)', () => {
  it('test_eth_estimateUserOperationGas: estimates an operation', async () => {
    const { op } = await buildWalletOperation()
    const estimate = await kit.call('eth_estimateUserOperationGas', [op, kit.entryPoint])
    expect(estimate.result).toMatchObject({
      preVerificationGas: expect.stringMatching(/^0x/),
      verificationGasLimit: expect.stringMatching(/^0x/),
      callGasLimit: expect.stringMatching(/^0x/),
    })
    expectFitsBundlerSpec('eth_estimateUserOperationGas', estimate.result)
  }, 60_000)

  it('test_eth_estimateUserOperationGas_execution_revert: a reverting call phase is -32521', async () => {
    const { wallet, op } = await buildWalletOperation()
    const reverting = await kit.call('eth_estimateUserOperationGas', [
      { ...op, callData: wallet.encode('fail') },
      kit.entryPoint,
    ])
    expect(reverting.error).toMatchObject({ code: -32521 })
  }, 60_000)

  it('test_eth_estimateUserOperationGas_simulation_revert: a reverting validation is -32500 with its reason', async () => {
    const { op } = await buildWalletOperation('0xdead')
    const deadSignature = await kit.call('eth_estimateUserOperationGas', [op, kit.entryPoint])
    expect(deadSignature.error).toMatchObject({
      code: -32500,
      message: expect.stringContaining('dead signature'),
    })
  }, 60_000)
})

describe('eth_getUserOperationByHash and eth_getUserOperationReceipt', () => {
  it('test_eth_getUserOperationByHash, test_eth_getUserOperationReceipt: answer a mined operation with its EntryPoint, block and receipt', async () => {
    const { op } = await buildWalletOperation()
    const hash = (await kit.send(op)).result as Hex
    await kit.sendBundleNow()
    const byHash = (await kit.call('eth_getUserOperationByHash', [hash])).result
    expect(byHash).toMatchObject({
      entryPoint: kit.entryPoint,
      blockNumber: expect.stringMatching(/^0x[0-9a-f]+$/),
      blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      userOperation: { sender: op.sender, nonce: op.nonce, callData: op.callData, signature: op.signature },
    })
    expectFitsBundlerSpec('eth_getUserOperationByHash', byHash)
    const receipt = await kit.receiptOf(hash)
    expect(receipt.userOpHash).toBe(hash)
    expectFitsBundlerSpec('eth_getUserOperationReceipt', receipt)
    const node = await kit.chain.publicClient.getTransactionReceipt({ hash: receipt.receipt.transactionHash })
    expect(receipt.receipt.blockHash).toBe(node.blockHash)
  }, 60_000)

  for (const method of ['eth_getUserOperationByHash', 'eth_getUserOperationReceipt']) {
    it(`test_${method}_error: an empty or short hash is -32602 "Missing/invalid userOpHash"`, async () => {
      for (const params of [[''], ['0x1234']]) {
        const { error } = await kit.call(method, params)
        expect(error).toMatchObject({
          code: -32602,
          message: expect.stringContaining('Missing/invalid userOpHash'),
        })
      }
    })
  }
})

describe('eth_chainId and eth_supportedEntryPoints', () => {
  it("test_eth_chainId, test_eth_supportedEntryPoints: eth_chainId is the node's; eth_supportedEntryPoints lists EntryPoint v0.8", async () => {
    const chainId = (await kit.call('eth_chainId')).result
    expect(Number(chainId)).toBe(await kit.chain.publicClient.getChainId())
    expectFitsBundlerSpec('eth_chainId', chainId)
    const entryPoints = (await kit.call('eth_supportedEntryPoints')).result
    expect(entryPoints).toContain(kit.entryPoint)
    expectFitsBundlerSpec('eth_supportedEntryPoints', entryPoints)
  })
})
