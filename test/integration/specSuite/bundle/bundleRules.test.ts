import type { Hex } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { fullMessageOf } from '../../../helpers/expectRejectionLine'
import { startTestService, type TestService } from '../../../helpers/startTestService'
import { hex } from '../../bundler/bundlerTestKit'
import { createMempoolRuleKit, type MempoolRuleKit, operationKey } from '../harness/mempoolRuleKit'

/**
 * The mempool scenarios of the ERC-4337 test suite's tests/single/bundle/test_bundle.py and test_paymaster.py
 * (eth-infinitism/bundler-spec-tests), on EntryPoint v0.8 in safe mode, with contracts of our own playing the
 * suite's. One service, manual bundling, state cleared before each scenario as the suite's fixture does.
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

const setMinUnstakeDelay = (seconds: number) =>
  kit.call('debug_bundler_setConfiguration', [{ minUnstakeDelay: seconds }])

describe('test_bundle.py: mempool limits and cross-operation rules', () => {
  it("UREP-010 (test_max_allowed_ops_unstaked_sender) an unstaked sender's 5th pending operation is refused; the first four stay and are bundled", async () => {
    const wallet = await kit.deploy('SpecWallet', [], 2n * 10n ** 18n)
    const callData = wallet.encode('setState', [1n])
    const ops = await Promise.all(
      [0n, 1n, 2n, 3n, 4n].map((i) =>
        kit.buildOperation({ sender: wallet.address, nonce: `0x${(i << 64n).toString(16)}`, callData }),
      ),
    )
    const hashes: Hex[] = []
    for (const op of ops.slice(0, 4)) {
      const { result, error } = await kit.send(op)
      expect(error).toBeUndefined()
      hashes.push(result)
    }
    const fifth = await kit.send(ops[4]!)
    expect(fifth.error).toMatchObject({ code: -32505, message: expect.stringContaining('unstaked') })
    expect(fullMessageOf(fifth.error)).toContain(wallet.address)
    expect(await kit.dumpMempool()).toEqual(ops.slice(0, 4).map(operationKey))

    await kit.sendBundleNow()
    expect(await kit.receiptOf(hashes[0]!)).toMatchObject({ userOpHash: hashes[0] })
  }, 60_000)

  it('UREP-011 (test_max_allowed_ops_staked_sender) a sender staked with a 2 s unstake delay is staked once the minimum unstake delay is 2 s: its 5th operation is accepted', async () => {
    const wallet = await kit.deploy('SpecWallet', [], 2n * 10n ** 18n)
    await kit.stake(wallet, 2)
    const callData = wallet.encode('setState', [1n])
    const ops = await Promise.all(
      [1n, 2n, 3n, 4n, 5n].map((i) =>
        kit.buildOperation({ sender: wallet.address, nonce: `0x${(i << 64n).toString(16)}`, callData }),
      ),
    )
    const hashes: Hex[] = []
    for (const op of ops.slice(0, 4)) hashes.push((await kit.send(op)).result)
    // Mainnet's minimum (one day, the default): a 2 s stake does not count, the unstaked limit applies.
    expect((await kit.send(ops[4]!)).error).toMatchObject({ code: -32505 })
    await setMinUnstakeDelay(2)
    try {
      expect((await kit.send(ops[4]!)).result).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await kit.dumpMempool()).toEqual(ops.map(operationKey))
      await kit.sendBundleNow()
      expect(await kit.receiptOf(hashes[0]!)).toMatchObject({ userOpHash: hashes[0] })
    } finally {
      await setMinUnstakeDelay(86_400)
    }
  }, 60_000)

  it("STO-041 (test_ban_user_op_access_other_ops_sender_in_bundle) two senders whose validations touch each other's storage: the first is mined, the second stays in the mempool", async () => {
    // wallet2 reads its balance in wallet1 (the "token"); wallet1's own operation zeroes that balance.
    const wallet1 = await kit.deploy('FakeWalletToken')
    const wallet2 = await kit.deploy('FakeWalletToken')
    await wallet1.write('setBalance', [wallet1.address, 10n ** 18n])
    await wallet1.write('setBalance', [wallet2.address, 10n ** 18n])
    await wallet1.write('setAnotherWallet', [wallet1.address])
    await wallet2.write('setAnotherWallet', [wallet1.address])
    const op1 = await kit.buildOperation({ sender: wallet1.address, callData: wallet2.address.toLowerCase() })
    const op2 = await kit.buildOperation({ sender: wallet2.address })
    const hash1 = (await kit.send(op1)).result as Hex
    const hash2 = (await kit.send(op2)).result as Hex
    expect(await kit.dumpMempool()).toEqual([operationKey(op1), operationKey(op2)])

    await kit.sendBundleNow()
    expect(await kit.dumpMempool()).toEqual([operationKey(op2)])
    expect(await kit.receiptOf(hash1)).toMatchObject({ userOpHash: hash1 })
    expect(await kit.receiptOf(hash2)).toBeNull()
  }, 60_000)

  it('STO-040 (test_ban_user_sender_double_role_in_bundle) an address used as a sender in one operation and as a paymaster in another: the second send is refused, in either order', async () => {
    const walletAndPaymaster = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    const wallet2 = await kit.deploy('SpecWallet')
    await kit.stake(wallet2)
    const op1 = await kit.buildOperation({ sender: walletAndPaymaster.address })
    const op2 = await kit.buildOperation({ sender: wallet2.address, paymaster: walletAndPaymaster.address })

    expect((await kit.send(op1)).error).toBeUndefined()
    expect((await kit.send(op2)).error).toMatchObject({
      code: -32502,
      message: expect.stringContaining(
        'is used as a sender entity in another UserOperation currently in mempool',
      ),
    })

    await kit.clearState()
    expect((await kit.send(op2)).error).toBeUndefined()
    expect((await kit.send(op1)).error).toMatchObject({
      code: -32502,
      message: expect.stringContaining(
        'is used as a different entity in another UserOperation currently in mempool',
      ),
    })
  }, 60_000)

  it('SREP-010 (test_stake_check_in_bundler) debug_bundler_getStakeStatus answers decimal stake and unstake delay, staked by the minimum unstake delay setting', async () => {
    const unstaked = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    const status = async (address: Hex) =>
      (await kit.call('debug_bundler_getStakeStatus', [address, kit.entryPoint])).result
    expect(await status(unstaked.address)).toEqual({
      stakeInfo: { addr: unstaked.address, stake: '0', unstakeDelaySec: '0' },
      isStaked: false,
    })
    const staked = await kit.deploy('SpecPaymaster', [kit.entryPoint])
    await kit.stake(staked, 2)
    const stakeInfo = { addr: staked.address, stake: '1000000000000000000', unstakeDelaySec: '2' }
    expect(await status(staked.address)).toEqual({ stakeInfo, isStaked: false })
    await setMinUnstakeDelay(2)
    try {
      expect(await status(staked.address)).toEqual({ stakeInfo, isStaked: true })
    } finally {
      await setMinUnstakeDelay(86_400)
    }
  }, 60_000)
})

/** test_bundle.py's fees: a replacement needs both raised by at least MIN_PRICE_BUMP percent. */
const DEFAULT_MAX_PRIORITY_FEE_PER_GAS = 10n ** 9n
const DEFAULT_MAX_FEE_PER_GAS = 5n * 10n ** 9n
const MIN_PRICE_BUMP = 10n
/** The suite's bump_fee_by: `fee` raised by `percent` (negative lowers it), rounded to the nearest wei. */
const bumpFeeBy = (fee: bigint, percent: bigint) => (fee * (100n + percent) + 50n) / 100n

/** test_bundle.py's replace_op_cases: which fee bumps replace a pending operation of the same sender and nonce. */
const REPLACE_OP_CASES = [
  { rule: 'only_priority_fee_bump', bumpPriority: MIN_PRICE_BUMP, bumpMax: 0n, replaces: false },
  { rule: 'only_max_fee_bump', bumpPriority: 0n, bumpMax: MIN_PRICE_BUMP, replaces: false },
  { rule: 'with_same_fee', bumpPriority: 0n, bumpMax: 0n, replaces: false },
  { rule: 'with_less_fee', bumpPriority: -MIN_PRICE_BUMP, bumpMax: -MIN_PRICE_BUMP, replaces: false },
  {
    rule: 'fee_bump_below_threshold',
    bumpPriority: MIN_PRICE_BUMP - 1n,
    bumpMax: MIN_PRICE_BUMP - 1n,
    replaces: false,
  },
  { rule: 'fee_bump_at_threshold', bumpPriority: MIN_PRICE_BUMP, bumpMax: MIN_PRICE_BUMP, replaces: true },
  {
    rule: 'fee_bump_above_threshold',
    bumpPriority: MIN_PRICE_BUMP + 1n,
    bumpMax: MIN_PRICE_BUMP + 1n,
    replaces: true,
  },
]

describe('test_bundle.py: test_bundle_replace_op', () => {
  for (const { rule, bumpPriority, bumpMax, replaces } of REPLACE_OP_CASES) {
    it(`${rule}: the replacement is ${replaces ? "accepted and takes the pending operation's place" : 'refused (-32602) and the pending operation stays'}`, async () => {
      const wallet = await kit.deploy('SpecWallet')
      const operation = (state: bigint, priorityFee: bigint, maxFee: bigint) =>
        kit.buildOperation({
          sender: wallet.address,
          callData: wallet.encode('setState', [state]),
          maxPriorityFeePerGas: hex(priorityFee),
          maxFeePerGas: hex(maxFee),
        })
      const pending = await operation(1n, DEFAULT_MAX_PRIORITY_FEE_PER_GAS, DEFAULT_MAX_FEE_PER_GAS)
      const replacement = await operation(
        2n,
        bumpFeeBy(DEFAULT_MAX_PRIORITY_FEE_PER_GAS, bumpPriority),
        bumpFeeBy(DEFAULT_MAX_FEE_PER_GAS, bumpMax),
      )
      expect((await kit.send(pending)).result).toMatch(/^0x[0-9a-f]{64}$/)
      expect(await kit.pendingOperations()).toEqual([expect.objectContaining(pending)])

      const reply = await kit.send(replacement)
      if (replaces) expect(reply.result).toMatch(/^0x[0-9a-f]{64}$/)
      else expect(reply.error).toMatchObject({ code: -32602 })
      expect(await kit.pendingOperations()).toEqual([
        expect.objectContaining(replaces ? replacement : pending),
      ])
    }, 60_000)
  }
})

describe('test_paymaster.py', () => {
  it("EREP-010 (test_paymaster_deposit) a paymaster's deposit must cover all its pending operations: the 3rd is refused (-32508)", async () => {
    const paymaster = await kit.deploy('SpecPaymaster', [kit.entryPoint], 0n)
    const ops = []
    for (let i = 0; i < 3; i++) {
      const wallet = await kit.deploy('SpecWallet')
      ops.push(await kit.buildOperation({ sender: wallet.address, paymaster: paymaster.address }))
    }
    const maxCost = (op: Record<string, string>) =>
      (BigInt(op.preVerificationGas!) +
        BigInt(op.verificationGasLimit!) +
        BigInt(op.callGasLimit!) +
        BigInt(op.paymasterVerificationGasLimit!) +
        BigInt(op.paymasterPostOpGasLimit!)) *
      BigInt(op.maxFeePerGas!)
    const total = ops.reduce((sum, op) => sum + maxCost(op), 0n)
    await kit.transact(paymaster.address, total - 1n)
    for (const op of ops.slice(0, 2)) expect((await kit.send(op)).error).toBeUndefined()
    expect((await kit.send(ops[2]!)).error).toMatchObject({
      code: -32508,
      message: expect.stringContaining('too low'),
    })
  }, 60_000)
})
