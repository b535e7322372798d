import type { Address } from 'viem'
import { beforeAll, beforeEach, describe, it } from 'vitest'
import { BANNED_OPCODE, expectAccepted, expectRejected } from '../harness/expectOutcome'
import { SPEC_RUNS, titled } from '../harness/scenarioTables'
import { openSpecSuite, ruleBytes, type SpecSuite } from '../harness/specSuite'

/** test_create.py's account_cases: what a new account's validation creates, with its factory staked or not. */
const ACCOUNT_CASES = [
  { rule: 'OP-032', factory: 'an unstaked', create: 'CREATE', accepted: true },
  { rule: 'OP-032', factory: 'an unstaked', create: 'CREATE2', accepted: false },
  { rule: 'EREP-060', factory: 'a staked', create: 'CREATE', accepted: true },
  { rule: 'EREP-060', factory: 'a staked', create: 'nested-CREATE', accepted: false },
  { rule: 'EREP-060', factory: 'a staked', create: 'nested-CREATE2', accepted: false },
  { rule: 'EREP-060', factory: 'a staked', create: 'CREATE2', accepted: true },
].map((c) => ({ ...c, outcome: c.accepted ? 'accepted' : 'rejected' }))

// eth-infinitism/bundler-spec-tests tests/single/opbanning/test_create.py: CREATE and CREATE2 in validation (OP-031,
// OP-032, EREP-060): banned without a factory and in the paymaster; the factory's frame creates the sender once; a new
// account may CREATE, and with a staked factory also CREATE2, but not through a contract it creates.
describe.each(titled(SPEC_RUNS, (run) => run.version))(
  'spec suite: contract creation on EntryPoint v%s',
  (_, { version }) => {
    let suite: SpecSuite
    let account: Address
    let wallet: Address
    let paymaster: Address
    let factory: Address
    let accountFactory: Address
    let stakedAccountFactory: Address

    beforeAll(async () => {
      suite = await openSpecSuite(version)
      account = await suite.deployEntity('SpecAccount', { staked: false })
      wallet = await suite.deploy('SpecWallet', 2n * 10n ** 18n)
      paymaster = await suite.deployEntity('SpecPaymaster', { staked: false })
      factory = await suite.deployEntity('SpecFactory', { staked: false })
      accountFactory = await suite.deploy('SpecAccountFactory')
      stakedAccountFactory = await suite.deploy('SpecAccountFactory')
      await suite.stake(stakedAccountFactory)
    })
    beforeEach(async () => {
      await suite.clearState()
    })

    it.each(['CREATE', 'CREATE2'])(
      'OP-031/OP-032 an existing account (no factory) uses %s: rejected',
      async (create) => {
        const reply = await suite.send({ sender: account, signature: ruleBytes(create) })
        expectRejected(reply, BANNED_OPCODE, [`account uses banned opcode: ${create}`])
      },
    )

    it.each(['CREATE', 'CREATE2'])('OP-011 an unstaked paymaster uses %s: rejected', async (create) => {
      const reply = await suite.send({
        sender: wallet,
        paymaster,
        paymasterData: ruleBytes(create),
        paymasterVerificationGasLimit: 300_000n,
      })
      expectRejected(reply, BANNED_OPCODE, [`paymaster uses banned opcode: ${create}`])
    })

    it('OP-031 an unstaked factory uses CREATE2 again after creating the sender: rejected', async () => {
      const factoryData = suite.factoryData('SpecFactory', 'CREATE2')
      const sender = await suite.prepareSender(factory, factoryData)
      const reply = await suite.send({ sender, factory, factoryData })
      expectRejected(reply, BANNED_OPCODE, ['factory', 'CREATE2'])
    })

    it.each(
      titled(
        ACCOUNT_CASES,
        (c) => `${c.rule} a new account of ${c.factory} factory uses ${c.create}: ${c.outcome}`,
      ),
    )('%s', async (_, { factory: stake, create, accepted }) => {
      const creator = stake === 'a staked' ? stakedAccountFactory : accountFactory
      const factoryData = suite.factoryData('SpecAccountFactory', '')
      const sender = await suite.prepareSender(creator, factoryData)
      const reply = await suite.send({
        sender,
        factory: creator,
        factoryData,
        signature: ruleBytes(create),
        verificationGasLimit: 5_000_000n,
      })
      if (accepted) expectAccepted(reply)
      else
        expectRejected(reply, BANNED_OPCODE, [`account uses banned opcode: ${create.replace('nested-', '')}`])
    })
  },
)
