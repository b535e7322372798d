import type { Address } from 'viem'
import { beforeAll, beforeEach, describe, it } from 'vitest'
import { fundEth } from '../../../../src/main/service/chain'
import { BANNED_OPCODE, expectAccepted, expectRejected } from '../harness/expectOutcome'
import { inFrames, SPEC_RUNS, titled } from '../harness/scenarioTables'
import { openSpecSuite, ruleBytes, type SpecSuite, type SpecUserOperation } from '../harness/specSuite'

type Entity = 'paymaster' | 'factory' | 'account'
/**
 * How the suite builds the scenario's operation: for the entity itself, or (`…Deploying`) with a sender deployed in
 * the same operation, by an unstaked SpecFactory (a SpecWallet) or by a staked SpecAccountFactory (a SpecAccount).
 */
type Build =
  | Entity
  | 'paymasterDeploying'
  | 'accountDeploying'
  | 'paymasterDeployingStakedFactory'
  | 'accountDeployingStakedFactory'
type Case = { rule: string; name: string; staked: boolean; entity: Entity; build: Build; accepted: boolean }

const row = (
  rule: string,
  name: string,
  staked: boolean,
  entity: Entity,
  accepted: boolean,
  build: Build = entity,
): Case => ({ rule, name, staked, entity, build, accepted })
const STAKED = true
const UNSTAKED = false
const OK = true
const DROP = false

// tests/single/bundle/test_storage_rules.py's `cases`, in its order.
const CASES: Case[] = [
  // unstaked paymaster
  row('STO-000', 'no_storage', UNSTAKED, 'paymaster', OK),
  row('STO-031', 'storage_read', UNSTAKED, 'paymaster', DROP),
  row('STO-031', 'storage_write', UNSTAKED, 'paymaster', DROP),
  row('OP-070(STO-031)', 'transient_storage_tstore', UNSTAKED, 'paymaster', DROP),
  row('OP-070(STO-031)', 'transient_storage_tload', UNSTAKED, 'paymaster', DROP),
  row('STO-032', 'paymaster_reference_storage', UNSTAKED, 'paymaster', DROP),
  row('STO-032', 'paymaster_reference_storage_struct', UNSTAKED, 'paymaster', DROP),
  row('STO-010', 'account_storage', UNSTAKED, 'paymaster', OK),
  row('OP-070(STO-010)', 'account_transient_storage', UNSTAKED, 'paymaster', OK),
  row('STO-021', 'account_reference_storage', UNSTAKED, 'paymaster', OK),
  row('STO-021', 'account_reference_storage_struct', UNSTAKED, 'paymaster', OK),
  row('STO-022', 'account_reference_storage_init_code', UNSTAKED, 'paymaster', DROP, 'paymasterDeploying'),
  row('EREP-050', 'context', UNSTAKED, 'paymaster', DROP),
  row('STO-032', 'external_storage_read', UNSTAKED, 'paymaster', DROP),
  row('OP-020', 'out_of_gas', UNSTAKED, 'paymaster', DROP),
  row('OP-020', 'sstore_out_of_gas', UNSTAKED, 'paymaster', DROP),
  // staked paymaster
  row('STO-000', 'no_storage', STAKED, 'paymaster', OK),
  row('STO-031', 'storage_read', STAKED, 'paymaster', OK),
  row('STO-031', 'storage_write', STAKED, 'paymaster', OK),
  row('STO-032', 'paymaster_reference_storage', STAKED, 'paymaster', OK),
  row('STO-032', 'paymaster_reference_storage_struct', STAKED, 'paymaster', OK),
  row('STO-033', 'paymaster_reference_storage_struct', STAKED, 'paymaster', OK),
  row('STO-010', 'account_storage', STAKED, 'paymaster', OK),
  row('STO-021', 'account_reference_storage', STAKED, 'paymaster', OK),
  row('STO-021', 'account_reference_storage_struct', STAKED, 'paymaster', OK),
  row('STO-022', 'account_reference_storage_init_code', STAKED, 'paymaster', OK, 'paymasterDeploying'),
  row('EREP-050', 'context', STAKED, 'paymaster', OK),
  row('STO-033', 'external_storage_write', STAKED, 'paymaster', DROP),
  row('STO-033', 'external_storage_read', STAKED, 'paymaster', OK),
  row('OP-020', 'out_of_gas', STAKED, 'paymaster', DROP),
  row('OP-020', 'sstore_out_of_gas', STAKED, 'paymaster', DROP),
  // unstaked factory
  row('STO-000', 'no_storage', UNSTAKED, 'factory', OK),
  row('STO-000', 'storage_read', UNSTAKED, 'factory', DROP),
  row('STO-000', 'storage_write', UNSTAKED, 'factory', DROP),
  row('STO-000', 'factory_reference_storage', UNSTAKED, 'factory', DROP),
  row('STO-032', 'factory_reference_storage_struct', UNSTAKED, 'factory', DROP),
  row('STO-010', 'account_storage', UNSTAKED, 'factory', OK),
  row('STO-021', 'account_reference_storage', UNSTAKED, 'factory', DROP),
  row('STO-021', 'account_reference_storage_struct', UNSTAKED, 'factory', DROP),
  row('STO-000', 'external_storage_read', UNSTAKED, 'factory', DROP),
  row('OP-042', 'EXTCODEx_CALLx_undeployed_sender', UNSTAKED, 'factory', OK),
  row('OP-041', 'EXTCODESIZE_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'EXTCODEHASH_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'EXTCODECOPY_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'CALL_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'CALLCODE_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'DELEGATECALL_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-041', 'STATICCALL_undeployed_contract', UNSTAKED, 'factory', DROP),
  row('OP-020', 'out_of_gas', UNSTAKED, 'factory', DROP),
  row('OP-020', 'sstore_out_of_gas', UNSTAKED, 'factory', DROP),
  // staked factory
  row('STO-000', 'no_storage', STAKED, 'factory', OK),
  row('STO-031', 'storage_read', STAKED, 'factory', OK),
  row('STO-031', 'storage_write', STAKED, 'factory', OK),
  row('STO-032', 'factory_reference_storage', STAKED, 'factory', OK),
  row('STO-032', 'factory_reference_storage_struct', STAKED, 'factory', OK),
  row('STO-010', 'account_storage', STAKED, 'factory', OK),
  row('STO-021', 'account_reference_storage', STAKED, 'factory', OK),
  row('STO-021', 'account_reference_storage_struct', STAKED, 'factory', OK),
  row('STO-033', 'external_storage_write', STAKED, 'factory', DROP),
  row('STO-033', 'external_storage_read', STAKED, 'factory', OK),
  row('OP-020', 'out_of_gas', STAKED, 'factory', DROP),
  row('OP-020', 'sstore_out_of_gas', STAKED, 'factory', DROP),
  // unstaked sender
  row('STO-000', 'no_storage', UNSTAKED, 'account', OK),
  row('STO-010', 'account_storage', UNSTAKED, 'account', OK),
  row('STO-021', 'account_reference_storage', UNSTAKED, 'account', OK),
  row('STO-022', 'account_reference_storage_init_code', UNSTAKED, 'account', DROP, 'accountDeploying'),
  row(
    'STO-022',
    'account_reference_storage_init_code',
    UNSTAKED,
    'account',
    OK,
    'accountDeployingStakedFactory',
  ),
  row(
    'STO-022',
    'account_reference_storage_init_code',
    UNSTAKED,
    'paymaster',
    OK,
    'paymasterDeployingStakedFactory',
  ),
  row('STO-021', 'account_reference_storage_struct', UNSTAKED, 'account', OK),
  row('STO-000', 'external_storage_read', UNSTAKED, 'account', DROP),
  row('OP-020', 'out_of_gas', UNSTAKED, 'account', DROP),
  row('OP-020', 'sstore_out_of_gas', UNSTAKED, 'account', DROP),
  // staked sender
  row('STO-000', 'no_storage', STAKED, 'account', OK),
  row('STO-010', 'account_storage', STAKED, 'account', OK),
  row('STO-021', 'account_reference_storage', STAKED, 'account', OK),
  row('STO-021', 'account_reference_storage_struct', STAKED, 'account', OK),
  row('OP-020', 'out_of_gas', STAKED, 'account', DROP),
  row('OP-020', 'sstore_out_of_gas', STAKED, 'account', DROP),
  row('STO-033', 'external_storage_write', STAKED, 'account', DROP),
  row('STO-033', 'external_storage_read', STAKED, 'account', OK),
  row('OP-011', 'entryPoint_call_balanceOf', UNSTAKED, 'account', DROP),
  row('OP-061', 'eth_value_transfer_forbidden', UNSTAKED, 'account', DROP),
  row('OP-053', 'eth_value_transfer_entryPoint', UNSTAKED, 'account', OK),
  row('OP-052', 'eth_value_transfer_entryPoint_depositTo', UNSTAKED, 'account', OK),
  row('OP-041', 'EXTCODESIZE_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-041', 'EXTCODEHASH_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-041', 'EXTCODECOPY_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-054', 'EXTCODESIZE_entrypoint', UNSTAKED, 'account', DROP),
  row('OP-054', 'EXTCODEHASH_entrypoint', UNSTAKED, 'account', DROP),
  row('OP-054', 'EXTCODECOPY_entrypoint', UNSTAKED, 'account', DROP),
  row('OP-041', 'CALL_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-041', 'CALLCODE_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-041', 'DELEGATECALL_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-041', 'STATICCALL_undeployed_contract', UNSTAKED, 'account', DROP),
  row('OP-062', 'CALL_undeployed_contract_allowed_precompile', UNSTAKED, 'account', OK),
]

const DEPLOYING: Record<Build, string> = {
  paymaster: '',
  factory: '',
  account: '',
  paymasterDeploying: ' while an unstaked factory deploys the sender',
  accountDeploying: ' while an unstaked factory deploys it',
  paymasterDeployingStakedFactory: ' while a staked factory deploys the sender',
  accountDeployingStakedFactory: ' while a staked factory deploys it',
}
const scenarios = CASES.map((c) => ({
  ...c,
  who: `${c.staked ? 'a staked' : 'an unstaked'} ${c.entity}${DEPLOYING[c.build]}`,
  outcome: c.accepted ? 'accepted' : 'rejected',
}))

// eth-infinitism/bundler-spec-tests tests/single/bundle/test_storage_rules.py: storage access (STO-0xx), transient
// storage (OP-070), code-less addresses (OP-041/042), the EntryPoint (OP-052..054), value (OP-061), precompiles
// (OP-062), out of gas (OP-020) and the paymaster's context (EREP-050), for each entity, staked and not.
describe.each(titled(SPEC_RUNS, (run) => run.version))(
  'spec suite: storage rules on EntryPoint v%s',
  (_, { version, frames }) => {
    let suite: SpecSuite
    let state: Address
    let wallet: Address
    const entities = new Map<string, Address>()
    let stakedAccountFactory: Address

    beforeAll(async () => {
      suite = await openSpecSuite(version)
      state = await suite.deploy('SpecState')
      wallet = await suite.deploy('SpecWallet', 2n * 10n ** 18n)
      for (const staked of [false, true]) {
        entities.set(`paymaster ${staked}`, await suite.deployEntity('SpecPaymaster', { staked }))
        entities.set(`factory ${staked}`, await suite.deployEntity('SpecFactory', { staked }))
        const account = await suite.deployEntity('SpecAccount', { staked })
        entities.set(`account ${staked}`, account)
        // The suite funds the account's helper: what it sends in the "CALL:>" scenarios is its own.
        const helper = await suite.readAddress(account, 'SpecAccount', 'helper')
        await fundEth(suite.service.chain!, helper, 10n ** 18n)
      }
      stakedAccountFactory = await suite.deploy('SpecAccountFactory')
      await suite.stake(stakedAccountFactory)
    })
    beforeEach(async () => {
      await suite.clearState()
    })

    /** The suite's build_userop_for_* and with_initcode, for one entity of the scenario's stake. */
    async function buildOperation(c: Case, rule: string): Promise<SpecUserOperation> {
      const entity = entities.get(`${c.entity} ${c.staked}`) as Address
      const forPaymaster = (): SpecUserOperation => ({
        sender: wallet,
        paymaster: entity,
        paymasterData: ruleBytes(rule),
        paymasterVerificationGasLimit: 1_000_000n,
      })
      const forAccount = (): SpecUserOperation => ({
        sender: entity,
        callData: state,
        signature: ruleBytes(rule),
      })
      const deploying = async (op: SpecUserOperation, stakedFactory: boolean): Promise<SpecUserOperation> => {
        const factory = stakedFactory ? stakedAccountFactory : (entities.get('factory false') as Address)
        const factoryData = suite.factoryData(stakedFactory ? 'SpecAccountFactory' : 'SpecFactory', '')
        const sender = await suite.prepareSender(factory, factoryData)
        return { ...op, sender, factory, factoryData, verificationGasLimit: 5_000_000n }
      }
      switch (c.build) {
        case 'paymaster':
          return forPaymaster()
        case 'account':
          return forAccount()
        case 'factory': {
          const factoryData = suite.factoryData('SpecFactory', rule)
          return { sender: await suite.prepareSender(entity, factoryData), factory: entity, factoryData }
        }
        case 'paymasterDeploying':
          return deploying(forPaymaster(), false)
        case 'accountDeploying':
          return deploying(forAccount(), false)
        case 'paymasterDeployingStakedFactory':
          return deploying(forPaymaster(), true)
        case 'accountDeployingStakedFactory':
          return deploying(forAccount(), true)
      }
    }

    it.each(
      titled(
        inFrames(scenarios, frames),
        (c) => `${c.rule} ${c.who} runs ${c.name} ${c.frame}: ${c.outcome}`,
      ),
    )('%s', async (_, c) => {
      const reply = await suite.send(await buildOperation(c, c.prefix + c.name))
      if (c.accepted) expectAccepted(reply)
      else expectRejected(reply, BANNED_OPCODE)
    })
  },
)
