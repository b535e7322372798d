import { concat, decodeEventLog, getAddress, type Hex, numberToHex, parseAbi } from 'viem'
import { entryPoint08Address, entryPoint09Abi, entryPoint09Address } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { opstationVerifyingPaymasterV09Artifact } from '../../../src/main/service/chain/artifacts'
import { entryPointV09, packUserOperation } from '../../../src/main/service/entryPoint'
import { explainAaError } from '../../../src/shared/aaErrors'
import { requestJson, startTestService, type TestService } from '../../helpers/startTestService'
import { proveClientCell } from '../clients/clientMatrix'
import { createDapp } from '../paymaster/paymasterTestKit'
import { callBundler, createSimple7702Client, publicClientOf, randomAddress, waitFor } from './bundlerTestKit'
import { deployRuleTestAccountV07 } from './ruleTestAccount'

let service: TestService

/**
 * validAfter and validUntil above v0.9's top bit: a window in block numbers (a block range only when both have the top
 * bit and more, the EntryPoint's `> VALIDITY_BLOCK_RANGE_FLAG`).
 */
const BLOCK_FLAG = 1n << 47n
const blockWindow = (after: bigint, until: bigint) =>
  ((BLOCK_FLAG | after) << 208n) | ((BLOCK_FLAG | until) << 160n)

/** The console's record of an operation once it is dropped. */
const waitForDropped = (hash: Hex) =>
  waitFor(async () => {
    const { body } = await requestJson(`${service.baseUrl}/console/api/user-operations/${hash}`, {
      headers: { authToken: service.authToken() },
    })
    return body.data?.status === 'dropped' ? body.data : null
  }, 30_000)

const mineBlocks = (count: number) =>
  service.chain!.publicClient.request({ method: 'anvil_mine', params: [numberToHex(count)] } as never)

const ignoredInitCode = parseAbi([
  'event IgnoredInitCode(bytes32 indexed userOpHash, address indexed sender, address unusedFactory)',
])

beforeAll(async () => {
  service = await startTestService()
})
afterAll(async () => {
  await service?.dispose()
})

describe('EntryPoint v0.9', () => {
  it('is served: eth_supportedEntryPoints lists it, newest last', async () => {
    const { body } = await callBundler(service, 'eth_supportedEntryPoints', [])
    expect(body.result).toContain(entryPoint09Address)
    expect(body.result.at(-1)).toBe(entryPoint09Address)
  })

  it("takes viem's toSimple7702SmartAccount({ entryPoint: '0.9' }): estimated, delegated in a type-4 bundle, paid by the account, and called again without an authorization", async (context) => {
    proveClientCell(context, {
      client: 'viem',
      account: 'Simple7702Account (EIP-7702)',
      entryPoint: '0.9',
      payment: 'self-paid',
    })
    const { client, owner, account, bundlerClient } = await createSimple7702Client(service, '0.9')
    expect(account.entryPoint.address).toBe(entryPoint09Address)
    expect(account.address).toBe(owner.address)
    const implementation = service.chain!.addresses.simple7702AccountV09
    const authorization = await owner.signAuthorization({
      address: implementation,
      chainId: service.chain!.chainId,
      nonce: await client.getTransactionCount({ address: owner.address }),
    })
    const to = randomAddress()

    const estimate = await bundlerClient.estimateUserOperationGas({
      calls: [{ to, value: 777n }],
      authorization,
    })
    expect(estimate.verificationGasLimit).toBeGreaterThan(0n)
    expect(estimate.callGasLimit).toBeGreaterThan(0n)
    // pre-verification gas pays for the authorization in the bundle transaction (25,000).
    expect(estimate.preVerificationGas).toBeGreaterThan(25_000n)

    const balanceBefore = await client.getBalance({ address: owner.address })
    const hash = await bundlerClient.sendUserOperation({ calls: [{ to, value: 777n }], authorization })
    const receipt = await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })
    expect(receipt.success).toBe(true)
    expect(receipt.entryPoint).toBe(entryPoint09Address)
    expect(receipt.sender).toBe(owner.address)
    expect(await client.getBalance({ address: to })).toBe(777n)
    // Self-paid: the account paid the value and the gas; what its prefund left over stays its EntryPoint deposit.
    const deposit = await client.readContract({
      address: entryPoint09Address,
      abi: entryPoint09Abi,
      functionName: 'balanceOf',
      args: [owner.address],
    })
    expect((await client.getBalance({ address: owner.address })) + deposit).toBe(
      balanceBefore - 777n - receipt.actualGasCost,
    )
    expect(await client.getCode({ address: owner.address })).toBe(
      `0xef0100${implementation.slice(2).toLowerCase()}`,
    )
    const bundle = await client.getTransaction({ hash: receipt.receipt.transactionHash })
    expect(bundle.type).toBe('eip7702')
    expect(bundle.to?.toLowerCase()).toBe(entryPoint09Address.toLowerCase())
    const byHash = await bundlerClient.getUserOperation({ hash })
    expect(byHash.entryPoint).toBe(entryPoint09Address)
    expect(byHash.userOperation.factory).toBe('0x7702')

    const second = await bundlerClient.sendUserOperation({ calls: [{ to, value: 3n }] })
    expect((await bundlerClient.waitForUserOperationReceipt({ hash: second })).success).toBe(true)
    expect(await client.getBalance({ address: to })).toBe(780n)
  })

  it('does not bundle from an executor that carries an EIP-7702 delegation: its operations are dropped saying what to do, and it bundles again as a plain EOA', async () => {
    const chain = service.chain!
    const setExecutorCode = (code: Hex) =>
      chain.publicClient.request({ method: 'anvil_setCode', params: [chain.executor.address, code] } as never)
    const { client, owner, bundlerClient } = await createSimple7702Client(service, '0.9')
    const authorize = async () =>
      owner.signAuthorization({
        address: chain.addresses.simple7702AccountV09,
        chainId: chain.chainId,
        nonce: await client.getTransactionCount({ address: owner.address }),
      })
    const to = randomAddress()
    await setExecutorCode(`0xef0100${chain.addresses.simple7702AccountV09.slice(2)}`)
    try {
      const hash = await bundlerClient.sendUserOperation({
        calls: [{ to, value: 1n }],
        authorization: await authorize(),
      })
      const record = await waitForDropped(hash)
      expect(record.failure.reason).toMatch(
        /The executor 0x[0-9a-fA-F]{40} carries an EIP-7702 delegation to 0x[0-9a-f]{40}; EntryPoint v0\.9 takes bundles only from a plain EOA: use an executor key without code/,
      )
      expect(await client.getBalance({ address: to })).toBe(0n)
    } finally {
      await setExecutorCode('0x')
    }
    const hash = await bundlerClient.sendUserOperation({
      calls: [{ to, value: 2n }],
      authorization: await authorize(),
    })
    expect((await bundlerClient.waitForUserOperationReceipt({ hash, timeout: 20_000 })).success).toBe(true)
    expect(await client.getBalance({ address: to })).toBe(2n)
  })

  it('reads validity windows in block numbers (the top bit of validAfter and validUntil): refuses an operation not yet due or about to expire with AA27, admits and mines one inside its window', async () => {
    const rules = await deployRuleTestAccountV07(service, entryPoint09Address)
    const client = publicClientOf(service)
    const send = async (nonce: bigint) =>
      callBundler(service, 'eth_sendUserOperation', [
        await rules.buildRpcOperation(nonce, randomAddress()),
        entryPoint09Address,
      ])

    const current = await client.getBlockNumber({ cacheTime: 0 })
    await rules.setValidationData(blockWindow(current + 100n, current + 200n))
    const notDue = await send(0n)
    expect(notDue.body.error.message).toMatch(/^AA27 outside valid block range: valid only after block \d+/)

    const now = await client.getBlockNumber({ cacheTime: 0 })
    await rules.setValidationData(blockWindow(1n, now))
    const expiring = await send(0n)
    expect(expiring.body.error.message).toMatch(/^AA27 outside valid block range: valid until block \d+/)

    await rules.setValidationData(blockWindow(1n, (await client.getBlockNumber({ cacheTime: 0 })) + 1000n))
    const inside = await send(0n)
    expect(inside.body.error).toBeUndefined()
    const receipt = await waitFor(async () => {
      const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [inside.body.result])
      return body.result
    })
    expect(receipt.success).toBe(true)
  })
  it('ignores the initCode of an account that exists (IgnoredInitCode), where v0.8 refuses it with AA10: estimated, admitted and mined', async () => {
    const withFactory = async (entryPoint: Hex): Promise<Record<string, string>> => {
      const rules = await deployRuleTestAccountV07(service, entryPoint)
      const op = await rules.buildRpcOperation(0n, randomAddress())
      // A factory that exists and data it would take: never called, the account being deployed already.
      return { ...op, factory: service.chain!.addresses.simpleAccountFactoryV08, factoryData: '0x5fbfb9cf' }
    }
    const v08 = await withFactory(entryPoint08Address)
    const refused = await callBundler(service, 'eth_sendUserOperation', [v08, entryPoint08Address])
    expect(refused.body.error.message).toMatch(/AA10 sender already constructed/)

    const op = await withFactory(entryPoint09Address)
    const { callGasLimit, verificationGasLimit, preVerificationGas, ...partial } = op
    const estimate = await callBundler(service, 'eth_estimateUserOperationGas', [
      partial,
      entryPoint09Address,
    ])
    expect(estimate.body.error).toBeUndefined()
    expect(BigInt(estimate.body.result.verificationGasLimit)).toBeGreaterThan(0n)
    const sent = await callBundler(service, 'eth_sendUserOperation', [op, entryPoint09Address])
    expect(sent.body.error).toBeUndefined()
    const receipt = await waitFor(async () => {
      const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [sent.body.result])
      return body.result
    })
    expect(receipt.success).toBe(true)
    const transaction = await publicClientOf(service).getTransactionReceipt({
      hash: receipt.receipt.transactionHash,
    })
    const ignored = transaction.logs.flatMap((log) => {
      try {
        return [decodeEventLog({ abi: ignoredInitCode, data: log.data, topics: log.topics })]
      } catch {
        return []
      }
    })
    expect(ignored).toHaveLength(1)
    expect(ignored[0]!.args).toMatchObject({
      userOpHash: sent.body.result,
      sender: getAddress(op.sender as Hex),
      unusedFactory: service.chain!.addresses.simpleAccountFactoryV08,
    })
  })
  it('drops an operation whose window in block numbers ends while it waits in the mempool, saying why (AA27), and refuses it when sent again', async () => {
    const rules = await deployRuleTestAccountV07(service, entryPoint09Address)
    const client = publicClientOf(service)
    await rules.setValidationData(blockWindow(1n, (await client.getBlockNumber({ cacheTime: 0 })) + 4n))
    const op = await rules.buildRpcOperation(0n, randomAddress())
    await callBundler(service, 'debug_bundler_setBundlingMode', ['manual'])
    try {
      const sent = await callBundler(service, 'eth_sendUserOperation', [op, entryPoint09Address])
      expect(sent.body.error).toBeUndefined()
      await mineBlocks(10)
      await callBundler(service, 'debug_bundler_sendBundleNow', [])
      const record = await waitForDropped(sent.body.result)
      expect(record.failure.reason).toMatch(
        /^AA27 outside valid block range: valid until block \d+, the chain is at block \d+; expired in the mempool$/,
      )
      expect(explainAaError(record.failure.reason)?.entity).toBe('account')
    } finally {
      await callBundler(service, 'debug_bundler_setBundlingMode', ['auto'])
    }
    const again = await callBundler(service, 'eth_sendUserOperation', [op, entryPoint09Address])
    expect(again.body.error.message).toMatch(/^AA27 outside valid block range: valid until block \d+/)
  })

  it("takes the v0.9 verifying paymaster's window in block numbers (it hands the EntryPoint the window it signed): mined inside it, refused with AA37 once the chain has passed its last block", async () => {
    const chain = service.chain!
    const client = publicClientOf(service)
    const { paymasterId } = await createDapp(service)
    const rules = await deployRuleTestAccountV07(service, entryPoint09Address)
    const paymaster = chain.addresses.verifyingPaymasterV09
    /** The operation with the paymaster's data signed by the service's paymaster key for blocks 1..until. */
    const sponsor = async (nonce: bigint, untilBlock: bigint) => {
      const op = {
        ...(await rules.buildRpcOperation(nonce, randomAddress())),
        paymaster,
        paymasterVerificationGasLimit: numberToHex(60_000n),
        paymasterPostOpGasLimit: numberToHex(40_000n),
        paymasterData: '0x',
      }
      const [validUntil, validAfter] = [Number(BLOCK_FLAG | untilBlock), Number(BLOCK_FLAG | 1n)]
      const hash = await client.readContract({
        address: paymaster,
        abi: opstationVerifyingPaymasterV09Artifact.abi,
        functionName: 'getHash',
        args: [packUserOperation(entryPointV09.fromWire(op)), paymasterId, validUntil, validAfter],
      })
      const signature = await chain.paymasterSigner.signMessage({ message: { raw: hash as Hex } })
      const paymasterData = concat([
        paymasterId,
        numberToHex(validUntil, { size: 6 }),
        numberToHex(validAfter, { size: 6 }),
        signature,
      ])
      return { ...op, paymasterData }
    }

    const inside = await callBundler(service, 'eth_sendUserOperation', [
      await sponsor(0n, (await client.getBlockNumber({ cacheTime: 0 })) + 100n),
      entryPoint09Address,
    ])
    expect(inside.body.error).toBeUndefined()
    const receipt = await waitFor(async () => {
      const { body } = await callBundler(service, 'eth_getUserOperationReceipt', [inside.body.result])
      return body.result
    })
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(paymaster)

    const ending = await sponsor(1n, (await client.getBlockNumber({ cacheTime: 0 })) + 3n)
    await mineBlocks(10)
    const refused = await callBundler(service, 'eth_sendUserOperation', [ending, entryPoint09Address])
    expect(refused.body.error.message).toMatch(
      /^AA37 paymaster inval block range: valid until block \d+, the chain is at block \d+/,
    )
    expect(explainAaError(refused.body.error.message)?.entity).toBe('paymaster')
  })
})
