import { encodeFunctionData, getAddress } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectRejectionLine } from '../../helpers/expectRejectionLine'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress, waitFor } from './bundlerTestKit'
import {
  compileRuleTestContracts,
  deployRuleTestAccount,
  type RuleTestAccount,
  toRpcOperation,
} from './ruleTestAccount'

let service: TestService
let account: RuleTestAccount
let other: RuleTestAccount
const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`

beforeAll(async () => {
  service = await startTestService({ unsafe: true })
  account = await deployRuleTestAccount(service)
  other = await deployRuleTestAccount(service)
})
afterAll(async () => {
  await service?.dispose()
})

const entryPoint = () => service.chain!.addresses.entryPoint
const send = (op: Parameters<typeof toRpcOperation>[0], extra: unknown[] = []) =>
  callBundler(service, 'eth_sendUserOperation', [toRpcOperation(op), entryPoint(), ...extra])
const receiptOf = (hash: string) => callBundler(service, 'eth_getUserOperationReceipt', [hash])
const statusOf = async (hash: string) =>
  (await callBundler(service, 'biconomy_getUserOperationStatus', [hash])).body

describe('bundler methods around the mempool', () => {
  it('answers unknown hashes as not found yet: receipt null and by-hash null with HTTP 200, status -32004 with HTTP 200', async () => {
    const receipt = await receiptOf(UNKNOWN_HASH)
    expect(receipt).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 1, result: null } })
    expect((await callBundler(service, 'eth_getUserOperationByHash', [UNKNOWN_HASH])).body.result).toBeNull()
    const status = await callBundler(service, 'biconomy_getUserOperationStatus', [UNKNOWN_HASH])
    expect(status.status).toBe(200)
    expect(status.body.error).toEqual({
      code: -32004,
      message: `UserOpHash: ${UNKNOWN_HASH} not found for chainId: ${service.chain!.chainId}`,
    })
  })

  it('serves eth_supportedEntryPoints (v0.6, v0.7, v0.8, v0.9), eth_chainId and biconomy_getGasFeeValues as integer decimal strings with the three tiers beside them', async () => {
    expect((await callBundler(service, 'eth_supportedEntryPoints', [])).body.result).toEqual([
      entryPoint(),
      '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
      '0x433709009B8330FDa32311DF1C2AFA402eD8D009',
    ])
    expect((await callBundler(service, 'eth_chainId', [])).body.result).toBe(
      `0x${service.chain!.chainId.toString(16)}`,
    )
    const fees = (await callBundler(service, 'biconomy_getGasFeeValues', [])).body.result
    expect(fees.maxFeePerGas).toMatch(/^\d+$/)
    expect(fees.maxPriorityFeePerGas).toMatch(/^\d+$/)
    const block = await service.chain!.publicClient.getBlock()
    expect(BigInt(fees.maxFeePerGas)).toBeGreaterThanOrEqual(block.baseFeePerGas ?? 0n)
    // @biconomy/abstractjs reads {slow, standard, fast} (0x-hex) from the same method; slow is the v4 answer.
    expect(BigInt(fees.slow.maxFeePerGas)).toBe(BigInt(fees.maxFeePerGas))
    expect(BigInt(fees.slow.maxPriorityFeePerGas)).toBe(BigInt(fees.maxPriorityFeePerGas))
    expect(BigInt(fees.fast.maxFeePerGas)).toBeGreaterThan(BigInt(fees.standard.maxFeePerGas))
  })

  it('estimates an operation without gas or fee fields in the shape of spec section 2.3', async () => {
    const op = await account.buildOperation({ nonce: 0n, to: randomAddress() })
    const { sender, nonce, initCode, callData, signature, paymasterAndData } = toRpcOperation(op)
    const { status, body } = await callBundler(service, 'eth_estimateUserOperationGas', [
      { sender, nonce, initCode, callData, signature, paymasterAndData },
      entryPoint(),
    ])
    expect(status).toBe(200)
    expect(body.result).toEqual({
      callGasLimit: expect.any(Number),
      verificationGasLimit: expect.any(Number),
      preVerificationGas: expect.any(Number),
      validUntil: '0xffffffffffff',
      validAfter: '0x0',
      maxPriorityFeePerGas: expect.stringMatching(/^\d+$/),
      maxFeePerGas: expect.stringMatching(/^\d+$/),
    })
  })

  it('rejects a wrong EntryPoint and a preVerificationGas below the floor with -32602', async () => {
    const op = await account.buildOperation({ nonce: 0n, to: randomAddress() })
    const wrong = await callBundler(service, 'eth_sendUserOperation', [toRpcOperation(op), randomAddress()])
    expect(wrong.status).toBe(400)
    expect(wrong.body.error.code).toBe(-32602)
    const low = await send({ ...op, preVerificationGas: 1000n })
    expect(low.body.error.code).toBe(-32602)
    expect(low.body.error.message).toMatch(/preVerificationGas too low: expected at least \d+/)
  })

  it('in manual mode keeps operations pending, rejects duplicates and under-priced replacements, accepts a 10% bump', async () => {
    expect((await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])).body.result).toBe('ok')
    try {
      const op = await account.buildOperation({ nonce: 0n, to: randomAddress() })
      const first = await send(op)
      expect(first.status).toBe(200)
      expect(await statusOf(first.body.result)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { state: 'BUNDLER_MEMPOOL' },
      })
      expect((await receiptOf(first.body.result)).body.result).toBeNull()
      // Pending: the operation itself, without a transaction or block yet.
      const pending = (await callBundler(service, 'eth_getUserOperationByHash', [first.body.result])).body
        .result
      const wire = { ...toRpcOperation(op), sender: getAddress(op.sender) }
      expect(pending).toMatchObject({
        userOperation: wire,
        ...wire,
        entryPoint: entryPoint(),
        transactionHash: null,
        blockHash: null,
        blockNumber: null,
      })

      const duplicate = await send(op)
      expect(duplicate.body.error.code).toBe(-32602)
      expect(duplicate.body.error.message).toMatch(/already in the mempool/)

      const bump9 = (fee: bigint) => fee + (fee * 9n) / 100n
      const underpriced = await send({
        ...op,
        maxFeePerGas: bump9(op.maxFeePerGas),
        maxPriorityFeePerGas: bump9(op.maxPriorityFeePerGas),
      })
      expect(underpriced.body.error.code).toBe(-32602)
      expect(underpriced.body.error.message).toMatch(/at least 10%/)

      const bump10 = (fee: bigint) => fee + (fee * 10n + 99n) / 100n
      const replacement = await send({
        ...op,
        maxFeePerGas: bump10(op.maxFeePerGas),
        maxPriorityFeePerGas: bump10(op.maxPriorityFeePerGas),
      })
      expect(replacement.status).toBe(200)
      expect((await statusOf(first.body.result)).result.state).toBe('DROPPED_FROM_BUNDLER_MEMPOOL')
      expect(
        (await callBundler(service, 'eth_getUserOperationByHash', [first.body.result])).body.result,
      ).toBeNull()
      const mempool = (await callBundler(service, 'debug_bundler_dumpMempool', [entryPoint()])).body.result
      expect(mempool).toHaveLength(1)
      expect(mempool[0].maxFeePerGas).toBe(`0x${bump10(op.maxFeePerGas).toString(16)}`)

      const bundle = (await callBundler(service, 'debug_bundler_sendBundleNow', [])).body.result
      expect(bundle.userOpHashes).toEqual([replacement.body.result])
      // The receipt is there as soon as the bundle is mined.
      const receipt = (await receiptOf(replacement.body.result)).body.result
      expect(receipt.receipt.transactionHash).toBe(bundle.transactionHash)
      const mined = (await callBundler(service, 'eth_getUserOperationByHash', [replacement.body.result])).body
        .result
      expect(mined).toMatchObject({
        transactionHash: bundle.transactionHash,
        blockHash: receipt.receipt.blockHash,
        blockNumber: receipt.receipt.blockNumber,
      })
    } finally {
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  })

  it('in interval mode bundles on the timer without being asked', async () => {
    await callBundler(service, 'debug_bundler_setBundlingMode', ['interval'])
    try {
      const sent = await send(await account.buildOperation({ nonce: 1n, to: randomAddress() }))
      expect((await statusOf(sent.body.result)).result.state).toBe('BUNDLER_MEMPOOL')
      const receipt = await waitFor(async () => (await receiptOf(sent.body.result)).body.result, 10_000, 100)
      expect(receipt.success).toBe(true)
    } finally {
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  })

  it('drops an operation that would revert the bundle, with its AA reason, and mines the others', async () => {
    await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])
    try {
      await account.setMode(0)
      await other.setMode(0)
      const good = await send(await account.buildOperation({ nonce: 2n, to: randomAddress() }))
      const bad = await send(await other.buildOperation({ nonce: 0n, to: randomAddress() }))
      expect([good.status, bad.status]).toEqual([200, 200])
      await other.setMode(3) // its validation now reverts
      const bundle = (await callBundler(service, 'debug_bundler_sendBundleNow', [])).body.result
      expect(bundle.userOpHashes).toEqual([good.body.result])
      expect((await receiptOf(good.body.result)).body.result.success).toBe(true)
      const dropped = (await statusOf(bad.body.result)).result
      expect(dropped.state).toBe('DROPPED_FROM_BUNDLER_MEMPOOL')
      expect(dropped.message).toMatch(/^AA23 reverted: validation disabled/)
      const record = await requestJson(`${service.baseUrl}/console/api/user-operations/${bad.body.result}`, {
        headers: { authToken: service.authToken() },
      })
      expect(record.body.data.failure).toMatchObject({ aaCode: 'AA23' })
      expect(record.body.data.timeline.map((t: any) => t.status)).toEqual(['pending', 'dropped'])
    } finally {
      await other.setMode(0)
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
  })

  it("with simulation_type 'validation_and_execution' rejects an operation whose call phase reverts (-32521)", async () => {
    const { account: artifact } = compileRuleTestContracts()
    const inner = encodeFunctionData({
      abi: artifact.abi,
      functionName: 'execute',
      args: [randomAddress(), 0n, '0x'],
    })
    const op = {
      ...(await other.buildOperation({ nonce: 0n, to: randomAddress() })),
      // The account calls its own execute(), which only the EntryPoint may call: the call phase reverts.
      callData: encodeFunctionData({
        abi: artifact.abi,
        functionName: 'execute',
        args: [other.address, 0n, inner],
      }),
    }
    const rejected = await send(op, [{ simulation_type: 'validation_and_execution' }])
    expect(rejected.status).toBe(400)
    expect(rejected.body.error.code).toBe(-32521)
    // The frame the revert started in (the account's own execute, called by itself), with its decoded reason: the
    // account's ABI is not known, so it is named by its address only.
    expectRejectionLine(
      rejected.body.error,
      `execution reverted in unknown contract at ${getAddress(other.address)}: not from EntryPoint`,
    )
    expect(rejected.body.error.data).toMatchObject({
      phase: 'execution',
      address: getAddress(other.address),
      contract: null,
      function: null,
      reason: 'not from EntryPoint',
    })
  })

  it('gives the Biconomy receipt shape to operations sent with params[2] and the ERC-4337 shape to others', async () => {
    const biconomy = await send(await account.buildOperation({ nonce: 3n, to: randomAddress() }), [
      { simulation_type: 'validation' },
    ])
    const standard = await send(await other.buildOperation({ nonce: 0n, to: randomAddress() }))
    const a = await waitFor(async () => (await receiptOf(biconomy.body.result)).body.result)
    const b = await waitFor(async () => (await receiptOf(standard.body.result)).body.result)
    expect(a.success).toBe('true')
    expect(a.receipt.gasUsed._isBigNumber).toBe(true)
    expect(typeof a.receipt.blockNumber).toBe('number')
    expect(b.success).toBe(true)
    expect(b.receipt.gasUsed).toMatch(/^0x[0-9a-f]+$/)
    expect(b.receipt.status).toBe('0x1')
  })

  it('in auto mode answers a receipt query made right after sending with the receipt once mined, not null', async () => {
    const sent = await send(await account.buildOperation({ nonce: 4n, to: randomAddress() }))
    const receipt = (await receiptOf(sent.body.result)).body.result
    expect(receipt).toMatchObject({ userOpHash: sent.body.result, success: true })
  })

  it('keeps operations and their receipts across a restart', async () => {
    const sent = await send(await account.buildOperation({ nonce: 5n, to: randomAddress() }))
    const before = await waitFor(async () => (await receiptOf(sent.body.result)).body.result)
    const { dataDir } = service
    await service.close()
    service = Object.assign(await startTestService({ dataDir, unsafe: true }), { dataDir })
    const after = (await receiptOf(sent.body.result)).body.result
    expect(after.receipt.transactionHash).toBe(before.receipt.transactionHash)
    expect(after.actualGasUsed).toBe(before.actualGasUsed)
    const byHash = (await callBundler(service, 'eth_getUserOperationByHash', [sent.body.result])).body.result
    expect(byHash.transactionHash).toBe(before.receipt.transactionHash)
    expect(byHash.userOperation.sender.toLowerCase()).toBe(account.address.toLowerCase())
  })
})
