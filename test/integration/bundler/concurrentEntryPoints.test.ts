import { type Address, type Hex, parseAbiItem } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { getNonce } from '../../../src/main/service/chain'
import { startTestService, type TestService } from '../../helpers/startTestService'
import { callBundler, randomAddress, waitFor } from './bundlerTestKit'
import { deployRuleTestAccount, deployRuleTestAccountV07, toRpcOperation } from './ruleTestAccount'

const OPS_PER_SENDER = 10
const ENTRY_POINTS = [
  '0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789',
  '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
] as const
/** 20 senders: 7 on v0.6, 7 on v0.7, 6 on v0.8. */
const SENDERS_PER_ENTRY_POINT = [7, 7, 6]

type Sender = {
  address: Address
  entryPoint: Address
  build: (nonce: bigint) => Promise<Record<string, string>>
}

let service: TestService
let senders: Sender[]

beforeAll(async () => {
  // The test reads every UserOperationEvent from block 0: a chain that keeps more than its last 64 blocks' logs.
  vi.stubEnv('OPSTATION_HISTORY_BLOCKS', '1024')
  // Each sender has its 10 operations in flight at once: more than ERC-7562's 4 pending per unstaked sender.
  service = await startTestService({ maxPendingPerUnstakedSender: OPS_PER_SENDER })
  senders = []
  for (const [index, entryPoint] of ENTRY_POINTS.entries()) {
    for (let i = 0; i < (SENDERS_PER_ENTRY_POINT[index] ?? 0); i++) {
      if (index === 0) {
        const account = await deployRuleTestAccount(service)
        senders.push({
          address: account.address,
          entryPoint,
          build: async (nonce) =>
            toRpcOperation(await account.buildOperation({ nonce, to: randomAddress() })),
        })
      } else {
        const account = await deployRuleTestAccountV07(service, entryPoint)
        senders.push({
          address: account.address,
          entryPoint,
          build: (nonce) => account.buildRpcOperation(nonce, randomAddress()),
        })
      }
    }
  }
}, 120_000)
afterAll(async () => {
  await service?.dispose()
  vi.unstubAllEnvs()
})

describe('200 UserOperations from 20 senders across EntryPoints v0.6, v0.7 and v0.8 sent at once', () => {
  it('mines every one exactly once, each sender in nonce order, and no bundle mixes EntryPoint versions', async () => {
    const chain = service.chain!
    const requests = (
      await Promise.all(
        senders.map((sender) =>
          Promise.all(
            Array.from({ length: OPS_PER_SENDER }, async (_, i) => ({
              sender,
              op: await sender.build(BigInt(i)),
            })),
          ),
        ),
      )
    ).flat()
    const responses = await Promise.all(
      requests.map(({ sender, op }) =>
        callBundler(service, 'eth_sendUserOperation', [op, sender.entryPoint]),
      ),
    )
    expect(responses.filter((r) => r.status !== 200).map((r) => r.body.error?.message)).toEqual([])
    const hashes = responses.map((r) => r.body.result as Hex)
    expect(new Set(hashes).size).toBe(200)

    const receipts = await Promise.all(
      hashes.map((hash) =>
        waitFor(
          async () => (await callBundler(service, 'eth_getUserOperationReceipt', [hash])).body.result,
          90_000,
          100,
        ),
      ),
    )
    expect(receipts.every((r: { success: boolean }) => r.success === true)).toBe(true)

    const events = await chain.publicClient.getLogs({
      address: [...ENTRY_POINTS],
      event: parseAbiItem(
        'event UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
      ),
      fromBlock: 0n,
    })
    const ours = events.filter((e) => hashes.includes(e.args.userOpHash as Hex))
    expect(ours).toHaveLength(200)
    for (const sender of senders) {
      const mine = ours.filter((e) => e.args.sender?.toLowerCase() === sender.address.toLowerCase())
      expect(mine.map((e) => e.args.nonce)).toEqual(
        Array.from({ length: OPS_PER_SENDER }, (_, i) => BigInt(i)),
      )
      expect(mine.every((e) => e.address.toLowerCase() === sender.entryPoint.toLowerCase())).toBe(true)
      expect(await getNonce(chain, sender.address, 0n, sender.entryPoint)).toBe(BigInt(OPS_PER_SENDER))
    }

    // Every bundle transaction went to one EntryPoint, and every operation it carried was of that EntryPoint.
    const byTransaction = new Map<Hex, Set<string>>()
    for (const event of ours) {
      const set = byTransaction.get(event.transactionHash) ?? new Set<string>()
      set.add(event.address.toLowerCase())
      byTransaction.set(event.transactionHash, set)
    }
    for (const [transactionHash, entryPoints] of byTransaction) {
      expect(entryPoints.size).toBe(1)
      const tx = await chain.publicClient.getTransaction({ hash: transactionHash })
      expect(tx.to?.toLowerCase()).toBe([...entryPoints][0])
    }
    expect(new Set(ours.map((e) => e.address.toLowerCase())).size).toBe(3)

    const executor = chain.executor.address
    expect(await chain.publicClient.getTransactionCount({ address: executor, blockTag: 'pending' })).toBe(
      await chain.publicClient.getTransactionCount({ address: executor, blockTag: 'latest' }),
    )
    expect((await callBundler(service, 'debug_bundler_dumpMempool', [])).body.result).toEqual([])
  }, 300_000)
})
