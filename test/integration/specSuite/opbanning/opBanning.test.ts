import type { Address } from 'viem'
import { beforeAll, beforeEach, describe, it } from 'vitest'
import { BANNED_OPCODE, expectAccepted, expectRejected } from '../harness/expectOutcome'
import { BANNED_OPCODES, inFrames, SPEC_RUNS, STAKED_ONLY_OPCODES, titled } from '../harness/scenarioTables'
import { openSpecSuite, ruleBytes, type SpecSuite } from '../harness/specSuite'

// eth-infinitism/bundler-spec-tests tests/single/opbanning/test_op_banning.py: opcodes an entity's validation may not
// use (OP-011, OP-012, OP-080), in the account, the paymaster and the factory.
describe.each(titled(SPEC_RUNS, (run) => run.version))(
  'spec suite: op banning on EntryPoint v%s',
  (_, { version, frames }) => {
    let suite: SpecSuite
    let account: Address
    let stakedAccount: Address
    let wallet: Address
    let paymaster: Address
    let stakedPaymaster: Address
    let factory: Address
    let stakedFactory: Address

    beforeAll(async () => {
      suite = await openSpecSuite(version)
      account = await suite.deployEntity('SpecAccount', { staked: false })
      stakedAccount = await suite.deployEntity('SpecAccount', { staked: true })
      wallet = await suite.deploy('SpecWallet', 2n * 10n ** 18n)
      paymaster = await suite.deployEntity('SpecPaymaster', { staked: false })
      stakedPaymaster = await suite.deployEntity('SpecPaymaster', { staked: true })
      factory = await suite.deployEntity('SpecFactory', { staked: false })
      stakedFactory = await suite.deployEntity('SpecFactory', { staked: true })
    })
    beforeEach(async () => {
      await suite.clearState()
    })

    it.each(
      titled(
        inFrames(BANNED_OPCODES, frames),
        (r) => `${r.rule} an unstaked account uses ${r.opcode} ${r.frame}: rejected`,
      ),
    )('%s', async (_, { opcode, prefix }) => {
      const reply = await suite.send({ sender: account, signature: ruleBytes(prefix + opcode) })
      expectRejected(reply, BANNED_OPCODE, [`account uses banned opcode: ${opcode}`])
    })

    it.each(
      titled(
        inFrames(STAKED_ONLY_OPCODES, frames),
        (r) => `OP-080 a staked account uses ${r.opcode} ${r.frame}: accepted`,
      ),
    )('%s', async (_, { opcode, prefix }) => {
      expectAccepted(await suite.send({ sender: stakedAccount, signature: ruleBytes(prefix + opcode) }))
    })

    it.each(
      titled(
        inFrames([{ sequence: 'GAS CALL' }, { sequence: 'GAS DELEGATECALL' }], frames),
        (r) => `OP-012 an account uses the sequence ${r.sequence} ${r.frame}: accepted`,
      ),
    )('%s', async (_, { sequence, prefix }) => {
      expectAccepted(await suite.send({ sender: account, signature: ruleBytes(prefix + sequence) }))
    })

    it.each(
      titled(
        inFrames(BANNED_OPCODES, frames),
        (r) => `${r.rule} an unstaked paymaster uses ${r.opcode} ${r.frame}: rejected`,
      ),
    )('%s', async (_, { opcode, prefix }) => {
      const reply = await suite.send({
        sender: wallet,
        paymaster,
        paymasterData: ruleBytes(prefix + opcode),
        paymasterVerificationGasLimit: 300_000n,
      })
      expectRejected(reply, BANNED_OPCODE, [`paymaster uses banned opcode: ${opcode}`])
    })

    it.each(titled(STAKED_ONLY_OPCODES, (r) => `OP-080 a staked paymaster uses ${r.opcode}: accepted`))(
      '%s',
      async (_, { opcode }) => {
        const reply = await suite.send({
          sender: wallet,
          paymaster: stakedPaymaster,
          paymasterData: ruleBytes(opcode),
          paymasterVerificationGasLimit: 50_000n,
        })
        expectAccepted(reply)
      },
    )

    it.each(titled(BANNED_OPCODES, (r) => `${r.rule} an unstaked factory uses ${r.opcode}: rejected`))(
      '%s',
      async (_, { opcode }) => {
        const factoryData = suite.factoryData('SpecFactory', opcode)
        const sender = await suite.prepareSender(factory, factoryData)
        const reply = await suite.send({ sender, factory, factoryData })
        expectRejected(reply, BANNED_OPCODE, ['factory', opcode])
      },
    )

    it.each(titled(STAKED_ONLY_OPCODES, (r) => `OP-080 a staked factory uses ${r.opcode}: accepted`))(
      '%s',
      async (_, { opcode }) => {
        const factoryData = suite.factoryData('SpecFactory', opcode)
        const sender = await suite.prepareSender(stakedFactory, factoryData)
        expectAccepted(await suite.send({ sender, factory: stakedFactory, factoryData }))
      },
    )
  },
)
