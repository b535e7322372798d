#!/usr/bin/env node
/**
 * Records the canonical deployment data of the smart accounts' contracts (the "account zoo") into
 * `src/main/service/chain/accountZoo/zooDeployments.ts`, which the chain module replays at start (CREATE2, nothing
 * fetched at run time).
 *
 * Source: the deployment list of permissionless.js's own test environment
 *   repository pimlicolabs/permissionless.js, `packages/permissionless-test/mock-aa-infra/alto/constants/` and
 *   `.../alto/index.ts` (MIT licence, Copyright (c) 2023 Pimlico). Each constant there is the calldata sent to a
 *   deterministic deployer: salt ‖ creation code for the CREATE2 deployer 0x4e59b448… and Safe's singleton factory
 *   0x914d7Fec…, `deploy(bytes32,bytes)` for Biconomy's deployer 0x988C135a…. The creation code is the projects'
 *   own published build (Safe 1.4.1 and 1.5.0, safe-modules 4337 v0.2.0/v0.3.0, Kernel v2.1-v2.4 and v3.0-v3.3, LightAccount
 *   v1.1.0 and v2.0.0, Trust Barz, Etherspot ModularEtherspotWallet (current and v1), thirdweb AccountFactory, Biconomy Nexus 1.0.x):
 *   byte-exact, so every contract lands at the address the SDKs hard-code.
 *
 * The script replays every deployment on a fresh anvil (from `@foundry-rs/anvil-*`) for chain ids 31337 and 1337,
 * and records, for each contract (also those a constructor creates), its address and runtime code hash. A contract
 * whose code differs by chain id (EIP-712 domain cached in an immutable) is recorded per chain id.
 *
 * Coinbase Smart Wallet v1: the mainnet broadcast of coinbase/smart-wallet (MIT), `broadcast/DeployFactory.s.sol/1/`.
 * Coinbase Smart Wallet v1.1 and viem's Solady account: rebuilt from their sources by `rebuild-zoo-contracts.mjs`,
 *   which writes REBUILT_DIR (no broadcast or artifact of them is published).
 * Biconomy MEE 2.0.0 (Nexus 1.2.0) and 1.0.0 (Nexus 1.0.2): build artifacts of bcnmy/nexus and bcnmy/mee-contracts
 * (MIT), see BICONOMY_MEE and BICONOMY_MEE_V1_0; MEE 1.0.0's composable module rebuilt (bcnmy/composability).
 * Alchemy Modular Account v1 and v2: the mainnet broadcasts of alchemyplatform/modular-account (GPL-3.0-or-later),
 * see ALCHEMY_MODULAR_ACCOUNT.
 *
 * Usage: node scripts/record-account-zoo.mjs [--keep-recorded] <permissionless.js> <coinbase/smart-wallet>
 *   <bcnmy/nexus> <bcnmy/mee-contracts> <alchemyplatform/modular-account> <alchemyplatform/multisig-plugin>
 *   (git dirs or checkouts; --keep-recorded: see readRecordedCalldata)
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { createPublicClient, createTestClient, getAddress, http, keccak256, parseEther } from 'viem'

const require = createRequire(import.meta.url)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outFile = join(root, 'src/main/service/chain/accountZoo/zooDeployments.ts')
const CONSTANTS_DIR = 'packages/permissionless-test/mock-aa-infra/alto/constants'
const CHAIN_IDS = [31337, 1337]

const DEPLOYERS = {
  create2Deployer: '0x4e59b44847b379578588920ca78fbf26c0b4956c',
  safeSingletonFactory: '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7',
  biconomyDeployer: '0x988C135a1049Ce61730724afD342fb7C56CD2776',
}

/**
 * What is taken, in deployment order: [constant, account family, deployer, the contracts it creates (name, address)].
 * EntryPoints, SimpleAccount factories and Biconomy Smart Account v2 are deployed by Opstation's own plan; Safe's
 * ERC-7579 adapter and its registry (which need attestations) are not taken.
 */
/**
 * Biconomy's MEE 2.0.0 stack (what `@biconomy/abstractjs` uses by default: Nexus 1.2.0 with the K1MeeValidator), from
 * the committed build artifacts of bcnmy/nexus and bcnmy/mee-contracts (MIT) at the commits whose bytecode gives the
 * mainnet addresses, with the salts and constructor arguments of their deployment scripts
 * (`scripts/foundry/DeployNexus.s.sol`, `DeployK1Mee.sol`): calldata = salt ‖ bytecode ‖ arguments for the CREATE2
 * deployer. Nexus(entryPoint v0.7, default validator K1MeeValidator, init data 0xeeee…); NexusBootstrap(default
 * validator, init data 0xeeee…); NexusAccountFactory(implementation, Biconomy's owner).
 * [constant, repository, commit, artifact, salt, constructor arguments, contract name, address]
 */
const BICONOMY_MEE = [
  [
    'BICONOMY_MEE_K1MEEVALIDATOR',
    'bcnmy/mee-contracts',
    'f5487c2e3fa2301fd724141ee01f699930b69922',
    'scripts/bash-deploy/artifacts/K1MeeValidator/K1MeeValidator.json',
    '0x000000000000000000000000000000000000000047819504fd5006001ee95238',
    '0x',
    'nexusK1MeeValidator',
    '0x00000000d12897DDAdC2044614A9677B191A2d95',
  ],
  [
    'BICONOMY_MEE_ETHERFORWARDER',
    'bcnmy/mee-contracts',
    '023dfecdcee1570670a65652dc8a450b6e2d5b52',
    'scripts/bash-deploy/artifacts/EtherForwarder/EtherForwarder.json',
    '0x0000000000000000000000000000000000000000f9941fb84509c0031a6fc104',
    '0x',
    'meeEtherForwarder',
    '0x000000Afe527A978Ecb761008Af475cfF04132a1',
  ],
  [
    'BICONOMY_MEE_NEXUS',
    'bcnmy/nexus',
    'd42164a9a3923dc474b2cd577a3513470cb65773',
    'scripts/bash-deploy/artifacts/Nexus/Nexus.json',
    '0x0000000000000000000000000000000000000000f036b687a1f82003988bd953',
    '0x0000000000000000000000000000000071727de22e5e9d8baf0edac6f37da03200000000000000000000000000000000d12897ddadc2044614a9677b191a2d9500000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000014eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee000000000000000000000000',
    'nexusV1_2Implementation',
    '0x000000004F43C49e93C970E84001853a70923B03',
  ],
  [
    'BICONOMY_MEE_NEXUSBOOTSTRAP',
    'bcnmy/nexus',
    '93626c65fc742aa63a22e1e29b5d2b1bff683f26',
    'scripts/bash-deploy/artifacts/NexusBootstrap/NexusBootstrap.json',
    '0x000000000000000000000000000000000000000069b8a8e8fec67700be0ca325',
    '0x00000000000000000000000000000000d12897ddadc2044614a9677b191a2d9500000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000014eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee000000000000000000000000',
    'nexusV1_2Bootstrap',
    '0x00000000D3254452a909E4eeD47455Af7E27C289',
  ],
  [
    'BICONOMY_MEE_NEXUSACCOUNTFACTORY',
    'bcnmy/nexus',
    '93626c65fc742aa63a22e1e29b5d2b1bff683f26',
    'scripts/bash-deploy/artifacts/NexusAccountFactory/NexusAccountFactory.json',
    '0x0000000000000000000000000000000000000000e289724d34a3660389fc1ab0',
    '0x000000000000000000000000000000004f43c49e93c970e84001853a70923b03000000000000000000000000129443ca2a9dec2020808a2868b38dda457eacc7',
    'nexusV1_2AccountFactory',
    '0x000000001D1D5004a02bAfAb9de2D6CE5b7B13de',
  ],
]

/**
 * MEE 1.0.0 (`getMEEVersion(MEEVersion.V1_0_0)`: Nexus 1.0.2 with the K1MeeValidator above as default validator),
 * same row shape: Nexus(entryPoint v0.7), NexusBootstrap(), NexusAccountFactory(implementation, Biconomy's owner), at
 * commits of bcnmy/nexus whose artifacts land at the addresses abstractjs names, with salts from its deployment
 * scripts' history. Its ComposableExecutionModule is rebuilt (REBUILT_DIR).
 */
const BICONOMY_MEE_V1_0 = [
  [
    'BICONOMY_MEE_V1_0_NEXUS',
    'bcnmy/nexus',
    'abfed8fecaa980b01e38bb8b6609dc7999de2307',
    'scripts/bash-deploy/artifacts/Nexus/Nexus.json',
    '0x0000000000000000000000000000000000000000d94e66ffea57d5033465d361',
    '0x0000000000000000000000000000000071727de22e5e9d8baf0edac6f37da032',
    'nexusV1_0_2MeeImplementation',
    '0x000000aC74357BFEa72BBD0781833631F732cf19',
  ],
  [
    'BICONOMY_MEE_V1_0_NEXUSBOOTSTRAP',
    'bcnmy/nexus',
    'abfed8fecaa980b01e38bb8b6609dc7999de2307',
    'scripts/bash-deploy/artifacts/NexusBootstrap/NexusBootstrap.json',
    '0x00000000000000000000000000000000000000005e620e103460b60399842649',
    '0x',
    'nexusV1_0_2MeeBootstrap',
    '0x879fa30248eeb693dcCE3eA94a743622170a3658',
  ],
  [
    'BICONOMY_MEE_V1_0_NEXUSACCOUNTFACTORY',
    'bcnmy/nexus',
    'eb8bc87c1ef0b1583fd2154296aa45b0c23f9d3b',
    'scripts/bash-deploy/artifacts/NexusAccountFactory/NexusAccountFactory.json',
    '0x0000000000000000000000000000000000000000663d6c9d31481c0429f9d44c',
    '0x000000000000000000000000000000ac74357bfea72bbd0781833631f732cf19000000000000000000000000129443ca2a9dec2020808a2868b38dda457eacc7',
    'nexusV1_0_2MeeAccountFactory',
    '0x000000c3A93d2c5E02Cb053AC675665b1c4217F9',
  ],
]

const BICONOMY_MEE_ROWS = () =>
  [...BICONOMY_MEE, ...BICONOMY_MEE_V1_0].map(([constant, , , , , , name, address]) => [
    constant,
    'nexus',
    'create2Deployer',
    [[name, address]],
  ])

/**
 * Alchemy's Modular Account v1 (ERC-6900 v0.7: what account-kit's createMultiOwnerModularAccount uses) and v2 (what
 * createModularAccountV2 uses by default: the semi-modular account whose owner is in its proxy's bytecode), from the
 * mainnet broadcasts of alchemyplatform/modular-account (GPL-3.0-or-later): each is one transaction to the CREATE2
 * deployer, calldata = salt ‖ creation code ‖ constructor arguments, taken as broadcast. v1 at the v1.0.x branch
 * (tag v1.0.1): UpgradeableModularAccount(EntryPoint v0.6), MultiOwnerPlugin, MultiOwnerModularAccountFactory(owner,
 * plugin, implementation, manifest hash, EntryPoint v0.6), SessionKeyPlugin v1.0.1. v2 at the commit that added its
 * broadcasts: SemiModularAccountBytecode(EntryPoint v0.7, ExecutionInstallDelegate) and AccountFactory(EntryPoint
 * v0.7, ModularAccount, SemiModularAccountBytecode, SingleSignerValidationModule, WebAuthnValidationModule, owner);
 * the other v2 contracts the factory names serve modes account-kit does not use by default.
 * [constant, commit, broadcast file, contract name in it, zoo name, address]
 */
const ALCHEMY_MODULAR_ACCOUNT = [
  [
    'ALCHEMY_MA_V1_IMPLEMENTATION',
    '1ceb7935b3d8642283f0dc8fd0a7a7f00132be9d',
    'broadcast/Deploy.s.sol/1/run-1707343636.json',
    'UpgradeableModularAccount',
    'modularAccountV1',
    '0x0046000000000151008789797b54fdb500E2a61e',
  ],
  [
    'ALCHEMY_MA_V1_MULTI_OWNER_PLUGIN',
    '1ceb7935b3d8642283f0dc8fd0a7a7f00132be9d',
    'broadcast/Deploy.s.sol/1/run-1707343636.json',
    'MultiOwnerPlugin',
    'multiOwnerPluginV1',
    '0xcE0000007B008F50d762D155002600004cD6c647',
  ],
  [
    'ALCHEMY_MA_V1_FACTORY',
    '1ceb7935b3d8642283f0dc8fd0a7a7f00132be9d',
    'broadcast/Deploy.s.sol/1/run-1707343636.json',
    'MultiOwnerModularAccountFactory',
    'multiOwnerModularAccountFactoryV1',
    '0x000000e92D78D90000007F0082006FDA09BD5f11',
  ],
  [
    'ALCHEMY_MA_V1_SESSION_KEY_PLUGIN',
    '1ceb7935b3d8642283f0dc8fd0a7a7f00132be9d',
    'broadcast/Deploy.s.sol/1/run-1708463498.json',
    'SessionKeyPlugin',
    'sessionKeyPluginV1',
    '0x0000003E0000a96de4058e1E02a62FaaeCf23d8d',
  ],
  [
    'ALCHEMY_MA_V2_SMA_BYTECODE',
    'd1fec4f76ddadbbe410a47cb8cf459ff016fb9cd',
    'broadcast/DeployAccounts.s.sol/1/run-1734488816.json',
    'SemiModularAccountBytecode',
    'semiModularAccountBytecodeV2',
    '0x000000000000c5A9089039570Dd36455b5C07383',
  ],
  [
    'ALCHEMY_MA_V2_FACTORY',
    'd1fec4f76ddadbbe410a47cb8cf459ff016fb9cd',
    'broadcast/DeployFactory.s.sol/1/run-1734488899.json',
    'AccountFactory',
    'modularAccountV2Factory',
    '0x00000000000017c61b5bEe81050EC8eFc9c6fecd',
  ],
]

/**
 * Alchemy's multisig Modular Account v1 (account-kit's createMultisigModularAccount): the MultisigPlugin and its
 * factory, MultisigModularAccountFactory(owner, plugin, Modular Account v1's implementation, manifest hash, EntryPoint
 * v0.6), from the mainnet broadcast of alchemyplatform/multisig-plugin (GPL-3.0-or-later), same row shape.
 */
const ALCHEMY_MULTISIG = [
  [
    'ALCHEMY_MA_V1_MULTISIG_PLUGIN',
    'b9308ba1d4b344df8dce3353db2882e29d63c4b4',
    'broadcast/Deploy.s.sol/1/run-1713228147.json',
    'MultisigPlugin',
    'multisigPluginV1',
    '0x000000000000A53f64b7bcf4Cd59624943C43Fc7',
  ],
  [
    'ALCHEMY_MA_V1_MULTISIG_FACTORY',
    'b9308ba1d4b344df8dce3353db2882e29d63c4b4',
    'broadcast/Deploy.s.sol/1/run-1713228147.json',
    'MultisigModularAccountFactory',
    'multisigModularAccountFactoryV1',
    '0x000000000000204327E6669f00901a57CE15aE15',
  ],
]

/** The release each commit's broadcasts deployed. */
const ALCHEMY_VERSIONS = {
  '1ceb7935b3d8642283f0dc8fd0a7a7f00132be9d':
    'v1.0.1 (branch v1.0.x; SessionKeyPlugin v1.0.1, the rest v1.0.0)',
  d1fec4f76ddadbbe410a47cb8cf459ff016fb9cd: 'v2.0.0',
  b9308ba1d4b344df8dce3353db2882e29d63c4b4: 'multisig-plugin v1.0.0',
}

const ALCHEMY_MODULAR_ACCOUNT_ROWS = () =>
  [...ALCHEMY_MODULAR_ACCOUNT, ...ALCHEMY_MULTISIG].map(([constant, , , , name, address]) => [
    constant,
    'alchemy',
    'create2Deployer',
    [[name, address]],
  ])

const DEPLOYMENTS = [
  [
    'SAFE_V06_MODULE_SETUP_CREATECALL',
    'safe',
    'create2Deployer',
    [['safeModuleSetupV06', '0x8EcD4ec46D4D2a6B64fE960B3D64e8B94B2234eb']],
  ],
  [
    'SAFE_V06_MODULE_CREATECALL',
    'safe',
    'create2Deployer',
    [['safe4337ModuleV06', '0xa581c4A4DB7175302464fF3C06380BC3270b4037']],
  ],
  [
    'SAFE_V07_MODULE_SETUP_CREATECALL',
    'safe',
    'create2Deployer',
    [['safeModuleSetupV07', '0x2dd68b007B46fBe91B9A7c3EDa5A7a1063cB5b47']],
  ],
  [
    'SAFE_V07_MODULE_CREATECALL',
    'safe',
    'create2Deployer',
    [['safe4337ModuleV07', '0x75cf11467937ce3F2f357CE24ffc3DBF8fD5c226']],
  ],
  [
    'SAFE_PROXY_FACTORY_CREATECALL',
    'safe',
    'safeSingletonFactory',
    [['safeProxyFactory', '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67']],
  ],
  [
    'SAFE_SINGLETON_CREATECALL',
    'safe',
    'safeSingletonFactory',
    [['safeSingleton', '0x41675C099F32341bf84BFc5382aF534df5C7461a']],
  ],
  [
    'SAFE_MULTI_SEND_CREATECALL',
    'safe',
    'safeSingletonFactory',
    [['safeMultiSend', '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526']],
  ],
  [
    'SAFE_MULTI_SEND_CALL_ONLY_CREATECALL',
    'safe',
    'safeSingletonFactory',
    [['safeMultiSendCallOnly', '0x9641d764fc13c8B624c04430C7356C1C7C8102e2']],
  ],
  // Safe 1.5.0 (permissionless's toSafeSmartAccount({ version: '1.5.0' }), EntryPoint v0.7 with the v0.3.0 module
  // above): the constants name MultiSend "SEND" and MultiSendCallOnly "MULTI_SEND".
  [
    'SAFE_ONE_FIVE_PROXY_CONTRACT',
    'safe',
    'safeSingletonFactory',
    [['safeProxyFactoryV1_5', '0x14F2982D601c9458F93bd70B218933A6f8165e7b']],
  ],
  [
    'SAFE_ONE_FIVE_SINGLETON_ADDRESS',
    'safe',
    'safeSingletonFactory',
    [['safeSingletonV1_5', '0xFf51A5898e281Db6DfC7855790607438dF2ca44b']],
  ],
  [
    'SAFE_ONE_FIVE_SEND_ADDRESS',
    'safe',
    'safeSingletonFactory',
    [['safeMultiSendV1_5', '0x218543288004CD07832472D464648173c77D7eB7']],
  ],
  [
    'SAFE_ONE_FIVE_MULTI_SEND_ADDRESS',
    'safe',
    'safeSingletonFactory',
    [['safeMultiSendCallOnlyV1_5', '0xA83c336B20401Af773B6219BA5027174338D1836']],
  ],
  [
    'KERNEL_V06_ECDSA_VALIDATOR_V2_2_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelEcdsaValidatorV2', '0xd9AB5096a832b9ce79914329DAEE236f8Eea0390']],
  ],
  [
    'KERNEL_V06_ACCOUNT_V2_1_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV2_1', '0xf048AD83CB2dfd6037A43902a2A5Be04e53cd2Eb']],
  ],
  [
    'KERNEL_V06_ACCOUNT_V2_2_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV2_2', '0x0DA6a956B9488eD4dd761E59f52FDc6c8068E6B5']],
  ],
  [
    'KERNEL_V06_ACCOUNT_V2_3_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV2_3', '0xD3F582F6B4814E989Ee8E96bc3175320B5A540ab']],
  ],
  [
    'KERNEL_V06_ACCOUNT_V2_4_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV2_4', '0xd3082872F8B06073A021b4602e022d5A070d7cfC']],
  ],
  [
    'KERNEL_V06_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelFactoryV2', '0x5de4839a76cf55d0c90e2061ef4386d962E15ae3']],
  ],
  [
    'KERNEL_V07_ECDSA_VALIDATOR_V3_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelEcdsaValidatorV3_0', '0x8104e3Ad430EA6d354d013A6789fDFc71E671c43']],
  ],
  [
    'KERNEL_V07_ACCOUNT_V3_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV3_0', '0x94F097E1ebEB4ecA3AAE54cabb08905B239A7D27']],
  ],
  [
    'KERNEL_V07_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelFactoryV3_0', '0x6723b44Abeec4E71eBE3232BD5B455805baDD22f']],
  ],
  [
    'KERNEL_V07_META_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelMetaFactory', '0xd703aaE79538628d27099B8c4f621bE4CCd142d5']],
  ],
  [
    'KERNEL_V07_V3_1_ECDSA_VALIDATOR_V3_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelEcdsaValidatorV3_1', '0x845ADb2C711129d4f3966735eD98a9F09fC4cE57']],
  ],
  [
    'KERNEL_V07_V3_1_ACCOUNT_V3_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV3_1', '0xBAC849bB641841b44E965fB01A4Bf5F074f84b4D']],
  ],
  [
    'KERNEL_V07_V3_1_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelFactoryV3_1', '0xaac5D4240AF87249B3f71BC8E4A2cae074A3E419']],
  ],
  [
    'KERNEL_V07_V3_1_WEB_AUTHN_VALIDATOR_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelWebAuthnValidatorV3_1', '0x7ab16Ff354AcB328452F1D445b3Ddee9a91e9e69']],
  ],
  [
    'KERNEL_V07_V3_2_ACCOUNT_V3_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV3_2', '0xD830D15D3dc0C269F3dBAa0F3e8626d33CFdaBe1']],
  ],
  [
    'KERNEL_V07_V3_2_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelFactoryV3_2', '0x7a1dBAB750f12a90EB1B60D2Ae3aD17D4D81EfFe']],
  ],
  [
    'KERNEL_V07_V3_3_ACCOUNT_V3_LOGIC_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelV3_3', '0xd6CEDDe84be40893d153Be9d467CD6aD37875b28']],
  ],
  [
    'KERNEL_V07_V3_3_FACTORY_CREATECALL',
    'kernel',
    'create2Deployer',
    [['kernelFactoryV3_3', '0x2577507b78c2008Ff367261CB6285d44ba5eF2E9']],
  ],
  [
    'LIGHT_ACCOUNT_FACTORY_V110_CREATECALL',
    'light',
    'create2Deployer',
    [
      ['lightAccountFactoryV1_1', '0x00004EC70002a32400f8ae005A26081065620D20'],
      ['lightAccountV1_1', '0xae8c656ad28F2B59a196AB61815C16A0AE1c3cba'],
    ],
  ],
  [
    'LIGHT_ACCOUNT_FACTORY_V200_CREATECALL',
    'light',
    'create2Deployer',
    [
      ['lightAccountFactoryV2', '0x0000000000400CdFef5E2714E63d8040b700BC24'],
      ['lightAccountV2', '0x8E8e658E22B12ada97B402fF0b044D6A325013C7'],
    ],
  ],
  [
    'TRUST_FACTORY_V06_CREATECALL',
    'trust',
    'create2Deployer',
    [['trustFactory', '0x729c310186a57833f622630a16d13f710b83272a']],
  ],
  [
    'TRUST_SECP256K1_VERIFICATION_FACET_CREATECALL',
    'trust',
    'create2Deployer',
    [['trustSecp256k1VerificationFacet', '0x81b9E3689390C7e74cF526594A105Dea21a8cdD5']],
  ],
  [
    'TRUST_ACCOUNT_FACET_CREATE_CALL',
    'trust',
    'create2Deployer',
    [['trustAccountFacet', '0xFde53272dcd7938d16E031A6989753c321728332']],
  ],
  [
    'TRUST_DIAMOND_CUT_FACET_CREATE_CALL',
    'trust',
    'create2Deployer',
    [['trustDiamondCutFacet', '0x0B9504140771C3688Ff041917192277D2f52E1e0']],
  ],
  [
    'TRUST_TOKEN_RECEIVER_FACET_CREATE_CALL',
    'trust',
    'create2Deployer',
    [['trustTokenReceiverFacet', '0x3143E1C0Af0Cdc153423863923Cf4e3818e34Daa']],
  ],
  [
    'TRUST_DIAMOND_LOUPE_FACET_CREATE_CALL',
    'trust',
    'create2Deployer',
    [['trustDiamondLoupeFacet', '0xCe36b85d12D81cd619C745c7717f3396E184Ac7C']],
  ],
  [
    'TRUST_DEFAULT_FALLBACK_HANDLER',
    'trust',
    'create2Deployer',
    [['trustDefaultFallbackHandler', '0x2e7f1dAe1F3799d20f5c31bEFdc7A620f664728D']],
  ],
  [
    'ETHERSPOT_WALLET_FACTORY_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotWalletFactory', '0x2A40091f044e48DEB5C0FCbc442E443F3341B451']],
  ],
  [
    'ETHERSPOT_IMPLEMENTATION',
    'etherspot',
    'create2Deployer',
    [['etherspotWallet', '0x339eAB59e54fE25125AceC3225254a0cBD305A7b']],
  ],
  [
    'ETHERSPOT_BOOTSTRAP_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotBootstrap', '0x0D5154d7751b6e2fDaa06F0cC9B400549394C8AA']],
  ],
  [
    'ETHERSPOT_MULTIPLE_OWNER_ECDSA_VALIDATOR_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotMultipleOwnerEcdsaValidator', '0x0740Ed7c11b9da33d9C80Bd76b826e4E90CC1906']],
  ],
  // Etherspot's modular wallet v1 (ETHERSPOT_V1 below), what permissionless 0.2 builds by default.
  [
    'ETHERSPOT_V1_WALLET_FACTORY_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotWalletFactoryV1', '0x93FB56A4a0B7160fbf8903d251Cc7A3fb9bA0933']],
  ],
  [
    'ETHERSPOT_V1_IMPLEMENTATION',
    'etherspot',
    'create2Deployer',
    [['etherspotWalletV1', '0x202A5598bDba2cE62bFfA13EcccB04969719Fad9']],
  ],
  [
    'ETHERSPOT_V1_BOOTSTRAP_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotBootstrapV1', '0x1baCB2F1ef4fD02f02e32cCF70888D9Caeb5f066']],
  ],
  [
    'ETHERSPOT_V1_MULTIPLE_OWNER_ECDSA_VALIDATOR_CREATECALL',
    'etherspot',
    'create2Deployer',
    [['etherspotMultipleOwnerEcdsaValidatorV1', '0x7aCEE15c9FFc1e8f287C26E0f4C8244A0729F557']],
  ],
  [
    'THIRDWEB_FACTORY_V06_CREATECALL',
    'thirdweb',
    'create2Deployer',
    [['thirdwebFactoryV06', '0x85e23b94e7F5E9cC1fF78BCe78cfb15B81f0DF00']],
  ],
  [
    'THIRDWEB_FACTORY_V07_CREATECALL',
    'thirdweb',
    'create2Deployer',
    [['thirdwebFactoryV07', '0x4be0ddfebca9a5a4a617dee4dece99e7c862dceb']],
  ],
  // Biconomy MEE 2.0.0 / Nexus 1.2.0 (BICONOMY_MEE below), for @biconomy/abstractjs.
  ...BICONOMY_MEE_ROWS(),
  // MEE 1.0.0's ComposableExecutionModule (REBUILT_DIR), which abstractjs checks for that version.
  [
    'BICONOMY_MEE_V1_0_COMPOSABLE_MODULE',
    'nexus',
    'create2Deployer',
    [['meeV1_0ComposableModule', '0x00000004430bB055dB66eBef6Fe5Ee1DA9668B10']],
  ],
  // coinbase/smart-wallet's mainnet broadcast (transactions to Safe's singleton factory), see COINBASE_BROADCAST.
  [
    'COINBASE_SMART_WALLET_V1_IMPLEMENTATION',
    'coinbase',
    'safeSingletonFactory',
    [['coinbaseSmartWalletV1', '0x000100abaad02f1cfC8Bbe32bD5a564817339E72']],
  ],
  [
    'COINBASE_SMART_WALLET_V1_FACTORY',
    'coinbase',
    'safeSingletonFactory',
    [['coinbaseSmartWalletFactoryV1', '0x0BA5ED0c6AA8c49038F819E587E2633c4A9F428a']],
  ],
  // Coinbase Smart Wallet v1.1 (REBUILT_DIR), viem's toCoinbaseSmartAccount({ version: '1.1' }).
  [
    'COINBASE_SMART_WALLET_V1_1_IMPLEMENTATION',
    'coinbase',
    'safeSingletonFactory',
    [['coinbaseSmartWalletV1_1', '0x00000110dCdEdC9581cb5eCB8467282f2926534d']],
  ],
  [
    'COINBASE_SMART_WALLET_V1_1_FACTORY',
    'coinbase',
    'safeSingletonFactory',
    [['coinbaseSmartWalletFactoryV1_1', '0xBA5ED110eFDBa3D005bfC882d75358ACBbB85842']],
  ],
  // viem's Solady account for EntryPoint v0.7 (REBUILT_DIR), what toSoladySmartAccount uses by default.
  [
    'SOLADY_ACCOUNT_V07_IMPLEMENTATION',
    'solady',
    'create2Deployer',
    [['soladyAccountV07', '0xEf80932876b5525C7385F3a4D1858b41660a2538']],
  ],
  [
    'SOLADY_ACCOUNT_V07_FACTORY',
    'solady',
    'create2Deployer',
    [['soladyAccountFactoryV07', '0x5d82735936c6Cd5DE57cC3c1A799f6B2E6F933Df']],
  ],
  [
    'NEXUS_BOOTSTRAP_LIB_CREATECALL',
    'nexus',
    'create2Deployer',
    [['nexusBootstrapLib', '0x6c77ddf87a1717465d29f8f16f44711eb0c839c0']],
  ],
  [
    'NEXUS_K1_VALIDATOR_CREATECALL',
    'nexus',
    'biconomyDeployer',
    [['nexusK1Validator', '0x00000004171351c442B202678c48D8AB5B321E8f']],
  ],
  [
    'NEXUS_ACCOUNT_IMPLEMENTATION_CREATECALL',
    'nexus',
    'biconomyDeployer',
    [['nexusImplementation', '0x000000039dfcAd030719B07296710F045F0558f7']],
  ],
  [
    'NEXUS_ACCOUNT_BOOTSTRAPPER_CREATECALL',
    'nexus',
    'biconomyDeployer',
    [['nexusBootstrap', '0x00000008c901d8871b6F6942De0B5D9cCf3873d3']],
  ],
  [
    'NEXUS_K1_VALIDATOR_FACTORY_CREATECALL',
    'nexus',
    'biconomyDeployer',
    [['nexusK1ValidatorFactory', '0x00000bb19a3579F4D779215dEf97AFbd0e30DB55']],
  ],
  // Alchemy Modular Account v1 and v2 (ALCHEMY_MODULAR_ACCOUNT above), for account-kit.
  ...ALCHEMY_MODULAR_ACCOUNT_ROWS(),
]

/**
 * Etherspot's modular wallet v1 (factory 0x93FB56…, implementation 0x202A5598…), the default of permissionless 0.2:
 * the same four constants at the permissionless.js commit before it moved to Etherspot's current deployment
 * (b6c640e, "update etherspot"), taken under these names.
 */
const ETHERSPOT_V1 = {
  commit: '155747064b9c0115601f7b821ed7bfd424ddce93',
  constants: {
    ETHERSPOT_V1_WALLET_FACTORY_CREATECALL: 'ETHERSPOT_WALLET_FACTORY_CREATECALL',
    ETHERSPOT_V1_IMPLEMENTATION: 'ETHERSPOT_IMPLEMENTATION',
    ETHERSPOT_V1_BOOTSTRAP_CREATECALL: 'ETHERSPOT_BOOTSTRAP_CREATECALL',
    ETHERSPOT_V1_MULTIPLE_OWNER_ECDSA_VALIDATOR_CREATECALL:
      'ETHERSPOT_MULTIPLE_OWNER_ECDSA_VALIDATOR_CREATECALL',
  },
}

function readEtherspotV1(source) {
  const { constants } = readSource(source, ETHERSPOT_V1.commit)
  return Object.fromEntries(
    Object.entries(ETHERSPOT_V1.constants).map(([name, constant]) => [name, constants[constant]]),
  )
}

/** Deployed first (by Opstation's own plan on the service's chain), not recorded. */
const PREREQUISITES = [
  'ENTRY_POINT_V06_CREATECALL',
  'ENTRY_POINT_V07_CREATECALL',
  'ENTRY_POINT_V08_CREATECALL',
]

/** Deployers that are not there on a fresh node: their runtime code is set (dev nodes). */
const ETCHED = [
  ['safeSingletonFactory', 'SAFE_SINGLETON_FACTORY_BYTECODE'],
  ['biconomyDeployer', 'BICONOMY_SINGLETON_FACTORY_BYTECODE'],
]

/**
 * Coinbase Smart Wallet v1 (what viem's toCoinbaseSmartAccount uses by default): the two transactions of
 * coinbase/smart-wallet's mainnet broadcast (MIT), calldata = salt ‖ creation code for Safe's singleton factory.
 */
const COINBASE_BROADCAST = 'broadcast/DeployFactory.s.sol/1/run-latest.json'
const COINBASE_CONSTANTS = ['COINBASE_SMART_WALLET_V1_IMPLEMENTATION', 'COINBASE_SMART_WALLET_V1_FACTORY']

/** The deployments `rebuild-zoo-contracts.mjs` recorded: one file per rebuilt project. */
const REBUILT_DIR = 'scripts/zooSources'

function readRebuilt() {
  const records = readdirSync(join(root, REBUILT_DIR))
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(join(root, REBUILT_DIR, file), 'utf8')))
  const constants = Object.fromEntries(
    records.flatMap((record) => record.deployments.map((d) => [d.constant, d.data])),
  )
  return { records, constants }
}

function readBiconomyArtifacts(sources) {
  const constants = {}
  const revs = {}
  for (const [constant, repository, commit, artifact, salt, args] of [
    ...BICONOMY_MEE,
    ...BICONOMY_MEE_V1_0,
  ]) {
    const json = JSON.parse(gitOf(sources[repository])('show', `${commit}:${artifact}`))
    const bytecode = typeof json.bytecode === 'string' ? json.bytecode : json.bytecode.object
    constants[constant] = `${salt}${bytecode.slice(2)}${args.slice(2)}`
    revs[repository] = [...new Set([...(revs[repository] ?? []), commit])]
  }
  return { constants, revs }
}

function gitOf(source) {
  const isGitDir = existsSync(join(source, 'HEAD')) && !existsSync(join(source, 'package.json'))
  return (...args) =>
    execFileSync('git', ['--git-dir', isGitDir ? source : join(source, '.git'), ...args], {
      maxBuffer: 64 * 1024 * 1024,
    }).toString()
}

function readCoinbaseBroadcast(source) {
  const git = gitOf(source)
  const rev = git('rev-parse', 'HEAD').trim()
  const run = JSON.parse(git('show', `${rev}:${COINBASE_BROADCAST}`))
  const inputs = run.transactions.map((t) => t.transaction.input ?? t.transaction.data)
  if (inputs.length !== COINBASE_CONSTANTS.length)
    throw new Error(`${COINBASE_BROADCAST}: expected 2 transactions`)
  return { rev, constants: Object.fromEntries(COINBASE_CONSTANTS.map((name, i) => [name, inputs[i]])) }
}

/**
 * Reads a file of a repository at a commit: from its git directory, or, where the commit is not there (a snapshot
 * older than the commit), from the same path under the directory given (a checkout at that commit). The bytes are
 * checked all the same: each deployment must create its contract at the recorded address (CREATE2: the hash of the
 * creation code and arguments).
 */
function readAt(source, commit, path) {
  const isGit = existsSync(join(source, 'HEAD')) || existsSync(join(source, '.git'))
  if (isGit) {
    try {
      return gitOf(source)('show', `${commit}:${path}`)
    } catch {
      // not in this clone: read the checkout below
    }
  }
  const file = join(source, path)
  if (!existsSync(file)) throw new Error(`${path} at ${commit}: not in ${source}`)
  return readFileSync(file, 'utf8')
}

/**
 * With `--keep-recorded`, a broadcast that the source given does not hold (a snapshot older than its commit) is not
 * read again: its calldata is taken as zooDeployments.ts recorded it from that commit, and replayed and checked like
 * the rest (it must still create its contract at the recorded address).
 */
const KEEP_RECORDED = process.argv.includes('--keep-recorded')

function readRecordedCalldata(constant) {
  const text = readFileSync(outFile, 'utf8')
  const m = new RegExp(
    `"source": "${constant}",\\s*"account": "[^"]*",\\s*"deployer": "[^"]*",\\s*"data": "(0x[0-9a-fA-F]*)"`,
  ).exec(text)
  if (!m) throw new Error(`${constant}: not recorded in ${outFile}`)
  return m[1]
}

function readAlchemyBroadcasts(source, rows) {
  const constants = {}
  const commits = new Set()
  for (const [constant, commit, path, contractName, , address] of rows) {
    let text
    try {
      text = readAt(source, commit, path)
    } catch (error) {
      if (!KEEP_RECORDED) throw error
      console.log(`${constant}: ${path} at ${commit} not in ${source}; keeping its recorded calldata`)
      constants[constant] = readRecordedCalldata(constant)
      commits.add(commit)
      continue
    }
    const run = JSON.parse(text)
    const tx = run.transactions.find(
      (t) =>
        t.transactionType === 'CREATE2' &&
        t.contractName === contractName &&
        t.contractAddress.toLowerCase() === address.toLowerCase(),
    )
    if (!tx) throw new Error(`${path}: no CREATE2 of ${contractName} at ${address}`)
    if (tx.transaction.to.toLowerCase() !== DEPLOYERS.create2Deployer.toLowerCase())
      throw new Error(`${path}: ${contractName} was not sent to the CREATE2 deployer`)
    constants[constant] = tx.transaction.input ?? tx.transaction.data
    commits.add(commit)
  }
  return { constants, commits: [...commits] }
}

function readSource(source, commit) {
  const git = gitOf(source)
  const rev = commit ?? git('rev-parse', 'HEAD').trim()
  const files = git('ls-tree', '-r', '--name-only', rev, CONSTANTS_DIR).trim().split('\n')
  const constants = {}
  for (const file of files) {
    const text = git('show', `${rev}:${file}`)
    for (const m of text.matchAll(/export const ([A-Z0-9_]+)(?:: *Hex)? *=\s*"(0x[0-9a-fA-F]*)"/g))
      constants[m[1]] = m[2]
  }
  return { rev, constants }
}

function anvilBinary() {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch]
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`
  const dir = dirname(require.resolve(`${pkg}/package.json`))
  for (const candidate of [join(dir, 'bin', 'anvil'), join(dir, 'anvil')])
    if (existsSync(candidate)) return candidate
  throw new Error(`anvil not found in ${dir}`)
}

/** A port nothing listens on now (a fixed one could be another anvil's, which the replay would then write to). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
    })
  })
}

async function startAnvil(chainId) {
  const port = await freePort()
  const child = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'],
    { stdio: 'ignore' },
  )
  let exited = false
  child.once('exit', () => {
    exited = true
  })
  const url = `http://127.0.0.1:${port}`
  const client = createPublicClient({ transport: http(url) })
  for (let i = 0; i < 100 && !exited; i++) {
    try {
      if ((await client.getChainId()) !== chainId) break
      if (exited) break
      return { child, url, client }
    } catch {
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  child.kill()
  throw new Error(`anvil did not start on port ${port}`)
}

/** Replays the deployments on a fresh anvil; returns address → code hash of every contract named. */
async function replay(chainId, constants) {
  const { child, url, client } = await startAnvil(chainId)
  try {
    const test = createTestClient({ mode: 'anvil', transport: http(url) })
    for (const [name, constant] of ETCHED)
      await test.setCode({ address: DEPLOYERS[name], bytecode: constants[constant] })
    const [from] = await client.request({ method: 'eth_accounts' })
    await test.setBalance({ address: from, value: parseEther('1000') })
    // The EntryPoints first, as on the service's chain (some constructors read them).
    for (const constant of PREREQUISITES) {
      const hash = await client.request({
        method: 'eth_sendTransaction',
        params: [{ from, to: DEPLOYERS.create2Deployer, data: constants[constant], gas: '0xe4e1c0' }],
      })
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    }
    const hashes = {}
    const states = {}
    // Accounts a deployment changes, except the sender and the deployers (whose nonce only counts deployments).
    const ignored = new Set([from, ...Object.values(DEPLOYERS)].map((a) => a.toLowerCase()))
    let before = await dumpAccounts(client)
    for (const [constant, , deployer, creates] of DEPLOYMENTS) {
      const hash = await client.request({
        method: 'eth_sendTransaction',
        params: [{ from, to: DEPLOYERS[deployer], data: constants[constant], gas: '0xe4e1c0' }],
      })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== 'success') throw new Error(`${constant} reverted`)
      for (const [name, address] of creates) {
        const code = await client.getCode({ address })
        if (!code || code === '0x') throw new Error(`${constant} did not create ${name} at ${address}`)
        hashes[name] = keccak256(code)
      }
      const after = await dumpAccounts(client)
      states[constant] = diffAccounts(before, after, ignored)
      before = after
    }
    return { hashes, states }
  } finally {
    child.kill()
  }
}

/** Every account of the node's state (anvil_dumpState: gzip-compressed JSON, hex-encoded). */
async function dumpAccounts(client) {
  const hex = await client.request({ method: 'anvil_dumpState', params: [] })
  const dump = JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8'))
  return dump.accounts
}

/**
 * What a deployment changed, sorted by address: each contract it created (code, nonce, non-zero storage), and the
 * storage words it wrote in contracts that were there before (Nexus 1.2.0's constructor installs its default
 * validator: the K1MeeValidator records the implementation's owner). Balances are not recorded: the deployments send
 * no value. The system contracts every block writes (EIP-2935 block hashes, EIP-4788 roots) are left out.
 */
function diffAccounts(before, after, ignored) {
  const changed = []
  for (const [address, account] of Object.entries(after)) {
    if (ignored.has(address.toLowerCase()) || SYSTEM_CONTRACTS.has(address.toLowerCase())) continue
    const prior = before[address]
    if (!account.code || account.code === '0x') continue
    const hadCode = prior?.code && prior.code !== '0x'
    if (hadCode) {
      const words = Object.entries(account.storage ?? {}).filter(
        ([slot, value]) => BigInt(prior.storage?.[slot] ?? '0x0') !== BigInt(value),
      )
      if (words.length > 0) changed.push({ address: getAddress(address), storage: sortWords(words) })
      continue
    }
    const storage = sortWords(
      Object.entries(account.storage ?? {}).filter(([, value]) => BigInt(value) !== 0n),
    )
    changed.push({ address: getAddress(address), nonce: Number(account.nonce), code: account.code, storage })
  }
  return changed.sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1))
}

const sortWords = (words) =>
  words.map(([slot, value]) => [toWord(slot), toWord(value)]).sort(([x], [y]) => (x < y ? -1 : 1))

const SYSTEM_CONTRACTS = new Set([
  '0x0000f90827f1c53a10cb7a02335b175320002935', // EIP-2935 history storage
  '0x000f3df6d732807ef1319fb7b8bb8522d0beac02', // EIP-4788 beacon roots
])

const toWord = (hex) => `0x${BigInt(hex).toString(16).padStart(64, '0')}`

const [source, coinbaseSource, nexusSource, meeSource, alchemySource, multisigSource] = process.argv
  .slice(2)
  .filter((a) => a !== '--keep-recorded')
if (!source || !coinbaseSource || !nexusSource || !meeSource || !alchemySource || !multisigSource) {
  console.error(
    'usage: node scripts/record-account-zoo.mjs <permissionless.js> <coinbase/smart-wallet> <bcnmy/nexus> <bcnmy/mee-contracts> <alchemyplatform/modular-account> <alchemyplatform/multisig-plugin> (git dirs or checkouts)',
  )
  process.exit(2)
}
const { rev, constants: permissionlessConstants } = readSource(resolve(source))
const coinbase = readCoinbaseBroadcast(resolve(coinbaseSource))
const rebuilt = readRebuilt()
const biconomy = readBiconomyArtifacts({
  'bcnmy/nexus': resolve(nexusSource),
  'bcnmy/mee-contracts': resolve(meeSource),
})
const etherspotV1 = readEtherspotV1(resolve(source))
const alchemy = readAlchemyBroadcasts(resolve(alchemySource), ALCHEMY_MODULAR_ACCOUNT)
const multisig = readAlchemyBroadcasts(resolve(multisigSource), ALCHEMY_MULTISIG)
const constants = {
  ...permissionlessConstants,
  ...etherspotV1,
  ...coinbase.constants,
  ...rebuilt.constants,
  ...biconomy.constants,
  ...alchemy.constants,
  ...multisig.constants,
}
for (const name of [...DEPLOYMENTS.map((d) => d[0]), ...ETCHED.map((e) => e[1]), ...PREREQUISITES]) {
  if (!constants[name]) throw new Error(`constant ${name} not found in ${CONSTANTS_DIR}`)
}
const byChain = {}
for (const chainId of CHAIN_IDS) byChain[chainId] = await replay(chainId, constants)

/** What a deployment leaves on chain: the same for every chain id ('*'), or per chain id. */
function stateByChain(constant) {
  const [first, ...rest] = CHAIN_IDS.map((id) => JSON.stringify(byChain[id].states[constant]))
  if (rest.every((s) => s === first)) return { '*': byChain[CHAIN_IDS[0]].states[constant] }
  return Object.fromEntries(CHAIN_IDS.map((id) => [id, byChain[id].states[constant]]))
}

const etched = ETCHED.map(([name, constant]) => ({
  name,
  address: getAddress(DEPLOYERS[name]),
  code: constants[constant],
}))
const deployments = DEPLOYMENTS.map(([constant, account, deployer, creates]) => ({
  source: constant,
  account,
  deployer,
  data: constants[constant],
  state: stateByChain(constant),
  contracts: creates.map(([name, address]) => {
    const [first, ...rest] = CHAIN_IDS.map((id) => byChain[id].hashes[name])
    const sameEverywhere = rest.every((h) => h === first)
    return {
      name,
      address: getAddress(address),
      // One hash, or per chain id where the code holds the chain id (an EIP-712 domain cached at construction).
      codeHash: sameEverywhere
        ? first
        : Object.fromEntries(CHAIN_IDS.map((id) => [id, byChain[id].hashes[name]])),
    }
  }),
}))

const header = `// Generated by scripts/record-account-zoo.mjs. Do not edit; re-run the script.
// Sources (calldata of each deployment to its deterministic deployer):
// https://github.com/pimlicolabs/permissionless.js/tree/${rev}/${CONSTANTS_DIR} (MIT licence, Copyright (c) 2023 Pimlico)
// https://github.com/pimlicolabs/permissionless.js/blob/${ETHERSPOT_V1.commit}/${CONSTANTS_DIR}/accounts/etherspot.ts (Etherspot v1, same licence)
// https://github.com/coinbase/smart-wallet/blob/${coinbase.rev}/${COINBASE_BROADCAST} (MIT licence, Coinbase)
${rebuilt.records
  .map(
    (r) =>
      `// https://github.com/${r.source.repository}/tree/${r.source.commit} (${r.contract}, ${r.source.licence}), rebuilt by\n// scripts/rebuild-zoo-contracts.mjs with its pinned submodules, commits in zooSources\n`,
  )
  .join(
    '',
  )}// https://github.com/bcnmy/nexus and https://github.com/bcnmy/mee-contracts build artifacts (MIT licence, Biconomy), commits in zooSources
// https://github.com/alchemyplatform/modular-account and https://github.com/alchemyplatform/multisig-plugin mainnet broadcasts
// (GPL-3.0-or-later, Alchemy Insights, Inc.), commits in zooSources:
// each contract's creation code as Alchemy broadcast it, deployed as a separate program on the local chain; its source
// is public at those commits.
`
const body = `
export const zooSources = ${JSON.stringify(
  [
    { repository: 'pimlicolabs/permissionless.js', commit: rev, path: CONSTANTS_DIR, licence: 'MIT' },
    {
      repository: 'pimlicolabs/permissionless.js',
      commit: ETHERSPOT_V1.commit,
      path: `${CONSTANTS_DIR}/accounts/etherspot.ts`,
      licence: 'MIT',
    },
    { repository: 'coinbase/smart-wallet', commit: coinbase.rev, path: COINBASE_BROADCAST, licence: 'MIT' },
    ...rebuilt.records.flatMap((record) => [
      { ...record.source, contract: record.contract, builtBy: 'scripts/rebuild-zoo-contracts.mjs' },
      ...record.submodules.map(({ repository, commit, path, licence }) => ({
        repository,
        commit,
        path: `${path} (submodule of ${record.source.repository})`,
        licence,
      })),
      ...(record.packages ?? []).map(({ repository, commit, licence }) => ({
        repository,
        commit,
        path: `/ (package of ${record.source.repository})`,
        licence,
      })),
    ]),
    ...Object.entries(biconomy.revs).flatMap(([repository, commits]) =>
      commits.map((commit) => ({
        repository,
        commit,
        path: 'scripts/bash-deploy/artifacts/',
        licence: 'MIT',
      })),
    ),
    ...alchemy.commits.map((commit) => ({
      repository: 'alchemyplatform/modular-account',
      commit,
      version: ALCHEMY_VERSIONS[commit],
      path: 'broadcast/',
      licence: 'GPL-3.0-or-later',
    })),
    ...multisig.commits.map((commit) => ({
      repository: 'alchemyplatform/multisig-plugin',
      commit,
      version: ALCHEMY_VERSIONS[commit],
      path: 'broadcast/',
      licence: 'GPL-3.0-or-later',
    })),
  ],
  null,
  2,
)} as const

/** Deployers set by code on dev nodes (absent from a fresh node). */
export const zooEtchedDeployers = ${JSON.stringify(etched, null, 2)} as const

/**
 * In order: each deployment's calldata to its deployer, the contracts it creates with their code hashes, and the
 * state it leaves (every account it creates or changes: code, nonce, storage), for dev nodes to set directly.
 */
export const zooDeployments: readonly ZooDeployment[] = ${JSON.stringify(deployments, null, 2)} as const

export type ZooDeployment = {
  source: string
  account: string
  deployer: 'create2Deployer' | 'safeSingletonFactory' | 'biconomyDeployer'
  data: \`0x\${string}\`
  /** By chain id, or '*' when the same on every chain id. */
  state: Readonly<Record<string, readonly ZooAccountState[]>>
  contracts: readonly { name: string; address: \`0x\${string}\`; codeHash: \`0x\${string}\` | Readonly<Record<string, \`0x\${string}\`>> }[]
}
`
const stateType = `
/** A contract the deployment created (with code and nonce), or storage it wrote in one that was there before. */
export type ZooAccountState = {
  address: \`0x\${string}\`
  nonce?: number
  code?: \`0x\${string}\`
  storage: readonly (readonly [\`0x\${string}\`, \`0x\${string}\`])[]
}
`
writeFileSync(outFile, header + body + stateType)
const chainDependent = deployments.flatMap((d) => d.contracts).filter((c) => typeof c.codeHash !== 'string')
console.log(
  `wrote ${outFile}: ${deployments.length} deployments, ${deployments.flatMap((d) => d.contracts).length} contracts (${chainDependent.length} with chain-dependent code: ${chainDependent.map((c) => c.name).join(', ')})`,
)
