import { type Hex, parseAbiItem } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { getNonce } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress, waitFor } from './bundlerTestKit'
import { deployRuleTestAccount, type RuleTestAccount, toRpcOperation } from './ruleTestAccount'

const SENDERS = 20
const OPS_PER_SENDER = 10

let service: TestService
let accounts: RuleTestAccount[]

beforeAll(async () => {
  // The test reads every UserOperationEvent from block 0: a chain that keeps more than its last 64 blocks' logs.
  vi.stubEnv('OPSTATION_HISTORY_BLOCKS', '1024')
  // Each sender has its 10 operations in flight at once: more than ERC-7562's 4 pending per unstaked sender.
  service = await startTestService({ maxPendingPerUnstakedSender: OPS_PER_SENDER })
  accounts = []
  for (let i = 0; i < SENDERS; i++) accounts.push(await deployRuleTestAccount(service))
}, 120_000)
afterAll(async () => {
  await service?.dispose()
  vi.unstubAllEnvs()
})

describe('200 UserOperations from 20 senders sent at once', () => {
  it('mines every one exactly once, each sender in nonce order, and leaves the executor usable', async () => {
    const chain = service.chain!
    const ops = (
      await Promise.all(
        accounts.map((account) =>
          Promise.all(
            Array.from({ length: OPS_PER_SENDER }, (_, i) =>
              account.buildOperation({ nonce: BigInt(i), to: randomAddress() }),
            ),
          ),
        ),
      )
    ).flat()
    // All 200 requests in flight together; a sender's nonces arrive in any order the network gives.
    const responses = await Promise.all(
      ops.map((op) =>
        callBundler(service, 'eth_sendUserOperation', [toRpcOperation(op), chain.addresses.entryPoint]),
      ),
    )
    const errors = responses.filter((r) => r.status !== 200).map((r) => r.body.error?.message)
    expect(errors).toEqual([])
    const hashes = responses.map((r) => r.body.result as Hex)
    expect(new Set(hashes).size).toBe(SENDERS * OPS_PER_SENDER)

    const receipts = await Promise.all(
      hashes.map((hash) =>
        waitFor(
          async () => (await callBundler(service, 'eth_getUserOperationReceipt', [hash])).body.result,
          90_000,
          100,
        ),
      ),
    )
    expect(receipts.every((r: any) => r.success === true)).toBe(true)

    // Exactly one UserOperationEvent per operation on chain, and per sender in nonce order.
    const events = await chain.publicClient.getLogs({
      address: chain.addresses.entryPoint,
      event: parseAbiItem(
        'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
      ),
      fromBlock: 0n,
    })
    const ours = events.filter((e) => hashes.includes(e.args.userOpHash as Hex))
    expect(ours).toHaveLength(SENDERS * OPS_PER_SENDER)
    for (const account of accounts) {
      const nonces = ours
        .filter((e) => e.args.sender?.toLowerCase() === account.address.toLowerCase())
        .map((e) => e.args.nonce)
      expect(nonces).toEqual(Array.from({ length: OPS_PER_SENDER }, (_, i) => BigInt(i)))
      expect(await getNonce(chain, account.address)).toBe(BigInt(OPS_PER_SENDER))
    }

    // The executor has nothing stuck: no pending transaction, and the next operation still goes through.
    const executor = chain.executor.address
    expect(await chain.publicClient.getTransactionCount({ address: executor, blockTag: 'pending' })).toBe(
      await chain.publicClient.getTransactionCount({ address: executor, blockTag: 'latest' }),
    )
    expect(
      (await callBundler(service, 'debug_bundler_dumpMempool', [chain.addresses.entryPoint])).body.result,
    ).toEqual([])
    const next = await accounts[0]!.buildOperation({ nonce: BigInt(OPS_PER_SENDER), to: randomAddress() })
    const sent = await callBundler(service, 'eth_sendUserOperation', [
      toRpcOperation(next),
      chain.addresses.entryPoint,
    ])
    const receipt = await waitFor(
      async () => (await callBundler(service, 'eth_getUserOperationReceipt', [sent.body.result])).body.result,
    )
    expect(receipt.success).toBe(true)
  }, 300_000)
})
