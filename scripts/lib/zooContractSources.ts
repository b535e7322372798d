import type { zooSources } from '../../src/main/service/chain/accountZoo/zooDeployments'

/** Where one family's contract sources are: a repository at a release (tag) and, where checked, its commit. */
export type ContractSourceLocation = {
  repository: string
  ref?: string
  commit?: string
  /** Which contracts of the family this location holds, when it holds only some. */
  holds?: string
}

/**
 * The source and licence of the contracts of one account family of the zoo (its deployments' `account`).
 * `licences` are the SPDX identifiers the source files declare, read in the repositories at these refs;
 * `fromZooSources` picks the zoo's own recorded sources (zooDeployments.ts#zooSources) that belong to it.
 */
export type ZooFamilySource = {
  title: string
  locations: readonly ContractSourceLocation[]
  licences: readonly string[]
  note?: string
  fromZooSources?: (source: (typeof zooSources)[number]) => boolean
}

const PERMISSIONLESS_DATA =
  "Deployment calldata from permissionless.js's test environment (zooSources, MIT); the bytecode is the family's own."

/**
 * Every account family the zoo deploys (zooDeployments.ts, `account` of each deployment). Checked against the
 * repositories (their tags, LICENSE files and SPDX lines); a family missing here fails the notices test.
 */
export const ZOO_FAMILY_SOURCES: Readonly<Record<string, ZooFamilySource>> = {
  safe: {
    title:
      'Safe smart account v1.4.1 and v1.5.0, Safe 4337 module (v0.2.0 for EntryPoint v0.6, v0.3.0 for v0.7)',
    locations: [
      {
        repository: 'https://github.com/safe-global/safe-smart-account',
        ref: 'v1.4.1',
        commit: 'bf943f80fec5ac647159d26161446ac5d716a294',
        holds: 'Safe (singleton), SafeProxyFactory, MultiSend, MultiSendCallOnly',
      },
      {
        repository: 'https://github.com/safe-global/safe-smart-account',
        ref: 'v1.5.0',
        commit: 'dc437e8fba8b4805d76bcbd1c668c9fd3d1e83be',
        holds: 'Safe 1.5.0 (singleton), SafeProxyFactory, MultiSend, MultiSendCallOnly',
      },
      {
        repository: 'https://github.com/safe-global/safe-modules',
        ref: '4337/v0.2.0',
        commit: 'd5de32548c968533ace53f514fd8ce2d276c1a27',
        holds: 'Safe4337Module and AddModulesLib (EntryPoint v0.6)',
      },
      {
        repository: 'https://github.com/safe-global/safe-modules',
        ref: '4337/v0.3.0',
        commit: '5931a275c9f8638cb8c62b366744f4c9fd72533d',
        holds: 'Safe4337Module and SafeModuleSetup (EntryPoint v0.7)',
      },
    ],
    licences: ['LGPL-3.0-only'],
    note: PERMISSIONLESS_DATA,
  },
  kernel: {
    title:
      'ZeroDev Kernel v2.1 to v2.4 and v3.0 to v3.3, their factories and ECDSA validators, WebAuthn validator',
    locations: [
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v2.1',
        commit: '5f8e8f46438e5920eb37d3c7c1e8717f07a213ce',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v2.2',
        commit: 'c389a575817655d5ef3ad02acf41c32dd034e704',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v2.3',
        commit: '90fa72ed4386b3a4acb86c021743c5d56fc4f603',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v2.4',
        commit: 'e00c66aa82f6d04809c908d2df27d0bac64785ff',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v3.0',
        commit: '88de17eed0a21b1215f611acd677f92904d070e4',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v3.1',
        commit: '03f7f5cf5871cda0070e4223f196f5b577f6cde2',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v3.2',
        holds: 'Kernel v3.2 and its factory',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel',
        ref: 'v3.3',
        holds: 'Kernel v3.3 and its factory',
      },
      {
        repository: 'https://github.com/zerodevapp/kernel-7579-plugins',
        commit: '0937ec5e9887c8a78054ed1e14652ba8f58239de',
        holds: 'WebAuthnValidator (validators/webauthn)',
      },
    ],
    licences: ['MIT', 'GPL-3.0', 'GPL-3.0-only'],
    note: `MIT (LICENSE.txt); v3's EntryPoint interfaces (src/interfaces, from eth-infinitism) declare GPL-3.0. ${PERMISSIONLESS_DATA}`,
  },
  light: {
    title: 'Alchemy LightAccount v1.1.0 and v2.0.0 and their factories',
    locations: [
      {
        repository: 'https://github.com/alchemyplatform/light-account',
        ref: 'v1.1.0',
        commit: '3de60d2bd3302da5df29dabb72d5a307e30ca36d',
      },
      { repository: 'https://github.com/alchemyplatform/light-account', ref: 'v2.0.0' },
    ],
    licences: ['GPL-3.0', 'MIT'],
    note: `LightAccount and its factories declare GPL-3.0, helper files MIT (LICENSE-GPL, LICENSE-MIT). ${PERMISSIONLESS_DATA}`,
  },
  trust: {
    title:
      'Trust Wallet Barz: factory, account and diamond facets, secp256k1 verification facet, fallback handler',
    locations: [
      {
        repository: 'https://github.com/trustwallet/barz',
        ref: 'v0.1.0',
        commit: 'd509e53196512f6730a3f9bafbf40445beaf68bb',
      },
    ],
    licences: ['Apache-2.0', 'GPL-3.0', 'GPL-3.0-only', 'LGPL-3.0-only', 'MIT'],
    note: `Apache-2.0 (LICENSE; most files), some files from other projects keep theirs. ${PERMISSIONLESS_DATA}`,
  },
  etherspot: {
    title:
      'Etherspot modular wallet (v1 and current): implementation, factory, bootstrap, MultipleOwnerECDSAValidator',
    locations: [
      {
        repository: 'https://github.com/etherspot/etherspot-modular-accounts',
        ref: 'v1.0.0',
        commit: '1741438a34ca49b52c314c1f1d6695e6f72f0135',
      },
      {
        repository: 'https://github.com/etherspot/etherspot-modular-accounts',
        commit: '66be5952ca4e60d29b9277ce9c95aa64fcab1f4c',
      },
    ],
    licences: ['MIT'],
    note: `MIT (LICENSE; the wallet, factory, bootstrap and validator files). ${PERMISSIONLESS_DATA}`,
  },
  thirdweb: {
    title: 'thirdweb AccountFactory for EntryPoint v0.6 and v0.7 (with the Account it deploys)',
    locations: [
      {
        repository: 'https://github.com/thirdweb-dev/contracts',
        commit: '0da770f27209774061e118401e8b9796ead97ced',
        holds: 'contracts/prebuilts/account/',
      },
    ],
    licences: ['Apache-2.0', 'GPL-3.0'],
    note: `The factories declare GPL-3.0, the account Apache-2.0 (LICENSE.md). ${PERMISSIONLESS_DATA}`,
  },
  nexus: {
    title:
      "Biconomy Nexus 1.0 and 1.2.0, MEE 1.0.0 and 2.0.0 (Nexus, bootstrap, K1 validators, factories, EtherForwarder, MEE 1.0.0's ComposableExecutionModule)",
    locations: [],
    licences: ['MIT', 'AGPL-3.0-only', 'GPL-3.0'],
    note: "MIT; the ComposableExecutionModule compiles in Rhinestone's module bases (AGPL-3.0-only) and eth-infinitism's PackedUserOperation (GPL-3.0).",
    fromZooSources: (source) =>
      source.repository === 'bcnmy/nexus' ||
      source.repository === 'bcnmy/mee-contracts' ||
      source.repository === 'bcnmy/composability' ||
      source.path.includes('of bcnmy/composability'),
  },
  coinbase: {
    title: 'Coinbase Smart Wallet v1 and v1.1 and their factories',
    locations: [],
    licences: ['MIT', 'GPL-3.0'],
    note: 'MIT; the eth-infinitism files compiled into v1.1 declare GPL-3.0.',
    fromZooSources: (source) =>
      source.repository === 'coinbase/smart-wallet' ||
      source.path.includes('submodule of coinbase/smart-wallet'),
  },
  solady: {
    title: "viem's Solady ERC-4337 account for EntryPoint v0.7 and its factory",
    locations: [],
    licences: ['MIT', 'Unlicense'],
    fromZooSources: (source) =>
      source.repository === 'wevm/viem' || source.path.includes('submodule of wevm/viem'),
  },
  alchemy: {
    title: 'Alchemy Modular Account v1 (with its plugins and multisig) and v2',
    locations: [],
    licences: ['GPL-3.0-or-later'],
    fromZooSources: (source) => source.repository.startsWith('alchemyplatform/'),
  },
}
