import type { Address, Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../../../helpers/startTestService'
import { hex } from '../../bundler/bundlerTestKit'
import {
  createMempoolRuleKit,
  type MempoolRuleKit,
  operationKey,
  type RpcOperation,
} from '../harness/mempoolRuleKit'

/**
 * The reputation scenarios of the ERC-4337 test suite's tests/single/reputation/{test_erep,test_replace}.py
 * (eth-infinitism/bundler-spec-tests), on EntryPoint v0.8 in safe mode, with contracts of our own playing the
 * suite's. The suite stakes its entities with a 2 s unstake delay and runs its bundler with a minimum it meets: this
 * service starts with `minUnstakeDelay: 2`. Manual bundling; state cleared before each scenario.
 */
let service: TestService
let kit: MempoolRuleKit

beforeAll(async () => {
  service = await startTestService({ minUnstakeDelay: 2 })
  kit = createMempoolRuleKit(service)
}, 120_000)
afterAll(() => service?.dispose())
beforeEach(async () => {
  await kit.clearState()
  await kit.setManualBundling()
})

const entryPointBalanceOf = (address: Address) =>
  kit.chain.publicClient.readContract({
    address: kit.entryPoint,
    abi: [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ name: 'account', type: 'address' }],
        outputs: [{ name: '', type: 'uint256' }],
      },
    ],
    functionName: 'balanceOf',
    args: [address],
  })

describe('test_erep.py', () => {
  it("EREP-015 a paymaster's opsSeen is not incremented for its account's failure at the second validation", async () => {
    const account = await kit.deploy('SpecWallet')
    const paymaster = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    await kit.stake(paymaster)
    await kit.setReputation(paymaster.address, 5, 2)
    const pre = await kit.reputationOf(paymaster.address)
    expect(pre).toEqual({ opsSeen: 5, opsIncluded: 2, status: 0 })
    const op = await kit.buildOperation({
      sender: account.address,
      paymaster: paymaster.address,
      paymasterVerificationGasLimit: hex(50_000n),
    })
    expect((await kit.send(op)).error).toBeUndefined()
    expect((await kit.reputationOf(paymaster.address)).opsSeen).toBe(6)

    // Out of band, the account makes its operation fail its second validation (AA23).
    await account.write('setState', [0xdeadn])
    await kit.sendBundleNow()
    expect(await kit.dumpMempool()).toEqual([])
    expect(await kit.reputationOf(paymaster.address)).toEqual(pre)
  }, 60_000)

  it('EREP-020 a staked factory is accountable for its account: an account that fails only in the bundle bans the factory', async () => {
    const factory = await kit.deploy('SpecAccountFactory', [], 0n)
    await kit.stake(factory)
    const ops: RpcOperation[] = []
    for (const salt of [0n, 1n]) {
      const account = (await factory.read('getAddress', [salt])) as Address
      await kit.transact(account, 10n ** 18n)
      const op = await kit.buildOperation({
        sender: account,
        verificationGasLimit: hex(5_000_000n),
        factory: factory.address,
        factoryData: factory.encode('create', [salt]),
      })
      expect((await kit.send(op)).error).toBeUndefined()
      ops.push(op)
    }
    expect((await kit.reputationOf(factory.address)).opsSeen).toBe(2)

    // The second deployment in one bundle sets its account's state to 0xdead: it passes alone, fails in the bundle.
    await factory.write('setAccountState', [0xdeadn])
    const block = await kit.chain.publicClient.getBlockNumber({ cacheTime: 0 })
    await kit.sendBundleNow()
    const reputation = await kit.reputationOf(factory.address)
    expect(reputation.opsSeen).toBeGreaterThanOrEqual(10_000)
    expect(reputation.status).toBe(2)
    // Every operation using the banned factory leaves the mempool; nothing was sent.
    expect(await kit.dumpMempool()).toEqual([])
    expect(await kit.chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(block)
  }, 60_000)

  for (const staked of [true, false]) {
    it(`EREP-030 a${staked ? ' staked' : 'n unstaked'} account and a paymaster whose deposit is withdrawn: ${
      staked ? 'the staked account is charged, not the paymaster' : 'the paymaster is charged'
    }`, async () => {
      const sender = await kit.deploy('SpecWallet')
      if (staked) await kit.stake(sender)
      const paymaster = await kit.deploy('SpecPaymaster', [kit.entryPoint])
      const counts = async () => [
        (await kit.reputationOf(sender.address)).opsSeen,
        (await kit.reputationOf(paymaster.address)).opsSeen,
      ]
      expect(await counts()).toEqual([0, 0])
      expect(
        (await kit.send(await kit.buildOperation({ sender: sender.address, paymaster: paymaster.address })))
          .error,
      ).toBeUndefined()
      expect(await counts()).toEqual([staked ? 1 : 0, 1])

      await paymaster.write('withdrawTo', [sender.address, await entryPointBalanceOf(paymaster.address)])
      const block = await kit.chain.publicClient.getBlockNumber({ cacheTime: 0 })
      await kit.sendBundleNow()
      expect(await kit.chain.publicClient.getBlockNumber({ cacheTime: 0 })).toBe(block)
      expect(await counts()).toEqual(staked ? [1, 0] : [0, 1])
    }, 60_000)
  }
})

describe('test_replace.py', () => {
  it("test_replace_paymaster: replacing an operation moves its paymaster's opsSeen to the new paymaster, and takes it back when the paymaster is removed", async () => {
    const wallet = await kit.deploy('SpecWallet')
    const pm1 = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    const pm2 = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    let op = await kit.buildOperation({
      sender: wallet.address,
      callData: wallet.encode('setState', [1_111_111n]),
      signature: '0xface',
      paymaster: pm1.address,
      paymasterData: '0x',
    })
    const bump = (o: RpcOperation): RpcOperation => ({
      ...o,
      maxFeePerGas: hex((BigInt(o.maxFeePerGas as string) * 115n) / 100n),
      maxPriorityFeePerGas: hex((BigInt(o.maxPriorityFeePerGas as string) * 115n) / 100n),
    })
    const send = async (next: RpcOperation) => {
      expect((await kit.send(next)).error).toBeUndefined()
      expect(await kit.dumpMempool()).toEqual([operationKey(next)])
    }
    const opsSeen = async (address: Address) => (await kit.reputationOf(address)).opsSeen

    await send(op)
    expect(await opsSeen(pm1.address)).toBe(1)
    op = bump(op)
    await send(op)
    expect(await opsSeen(pm1.address)).toBe(1)
    op = bump({ ...op, paymaster: pm2.address })
    await send(op)
    expect([await opsSeen(pm1.address), await opsSeen(pm2.address)]).toEqual([0, 1])
    const {
      paymaster: _p,
      paymasterData: _d,
      paymasterVerificationGasLimit: _v,
      paymasterPostOpGasLimit: _o,
      ...bare
    } = op
    await send(bump(bare as RpcOperation))
    expect(await opsSeen(pm2.address)).toBe(0)
  }, 60_000)
})

describe('debug_bundler_dumpReputation', () => {
  it('answers counters and status as 0x-hex quantities, status 0x0 ok, 0x1 throttled, 0x2 banned (what the suite reads)', async () => {
    const addresses: Hex[] = [
      '0x1000000000000000000000000000000000000001',
      '0x2000000000000000000000000000000000000002',
      '0x3000000000000000000000000000000000000003',
    ]
    await kit.call('debug_bundler_setReputation', [
      [
        { address: addresses[0], opsSeen: '0xa', opsIncluded: '0x1' },
        { address: addresses[1], opsSeen: hex(120n), opsIncluded: '0x1' },
        { address: addresses[2], opsSeen: hex(100_000n), opsIncluded: '0x1' },
      ],
      kit.entryPoint,
    ])
    const { result } = await kit.call('debug_bundler_dumpReputation', [kit.entryPoint])
    expect(result).toEqual([
      { address: addresses[0], opsSeen: '0xa', opsIncluded: '0x1', status: '0x0' },
      { address: addresses[1], opsSeen: '0x78', opsIncluded: '0x1', status: '0x1' },
      { address: addresses[2], opsSeen: '0x186a0', opsIncluded: '0x1', status: '0x2' },
    ])
  }, 60_000)
})
