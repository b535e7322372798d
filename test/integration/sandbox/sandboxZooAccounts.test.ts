import {
  toEtherspotSmartAccount,
  toKernelSmartAccount,
  toLightSmartAccount,
  toNexusSmartAccount,
  toSafeSmartAccount,
  toThirdwebSmartAccount,
} from 'permissionless/accounts'
import { concat, pad, parseAbi } from 'viem'
import { toSoladySmartAccount } from 'viem/account-abstraction'
import { describe } from 'vitest'
import { getZooAddress } from '../../../src/main/service/chain/accountZoo/zooContracts'
import { describeZooKinds, v07, withSandboxService, type ZooKind } from './sandboxZooKit'

const setup = withSandboxService()

const kinds: ZooKind[] = [
  {
    type: 'SAFE_V07',
    entryPoint: '0.7',
    factory: 'safeProxyFactory',
    activityName: 'Safe 1.4.1',
    sdk: (client, owner) =>
      toSafeSmartAccount({ client, owners: [owner], version: '1.4.1', entryPoint: v07 }),
  },
  {
    type: 'KERNEL_V3_1',
    entryPoint: '0.7',
    factory: 'kernelMetaFactory',
    activityName: 'Kernel v3.1',
    sdk: (client, owner) =>
      toKernelSmartAccount({ client, owners: [owner], version: '0.3.1', entryPoint: v07 }),
  },
  {
    type: 'LIGHT_ACCOUNT_V2',
    entryPoint: '0.7',
    factory: 'lightAccountFactoryV2',
    activityName: 'LightAccount v2.0.0',
    sdk: (client, owner) => toLightSmartAccount({ client, owner, version: '2.0.0', entryPoint: v07 }),
  },
  {
    type: 'NEXUS',
    entryPoint: '0.7',
    factory: 'nexusK1ValidatorFactory',
    activityName: 'Nexus 1.0',
    sdk: (client, owner) =>
      toNexusSmartAccount({ client, owners: [owner], version: '1.0.0', entryPoint: v07 }),
  },
  {
    type: 'ETHERSPOT',
    entryPoint: '0.7',
    factory: 'etherspotWalletFactory',
    activityName: 'Etherspot modular wallet',
    sdk: (client, owner) => toEtherspotSmartAccount({ client, owners: [owner], entryPoint: v07 }),
  },
  {
    type: 'THIRDWEB_V07',
    entryPoint: '0.7',
    factory: 'thirdwebFactoryV07',
    activityName: 'thirdweb',
    sdk: (client, owner) => toThirdwebSmartAccount({ client, owner, entryPoint: v07 }),
  },
  {
    // account-kit's createModularAccountV2, default mode (salt 0); its own tests are in test/sdk-clients.
    type: 'MODULAR_ACCOUNT_V2',
    entryPoint: '0.7',
    factory: 'modularAccountV2Factory',
    activityName: 'Modular Account v2',
    address: (client, owner) =>
      client.readContract({
        address: getZooAddress('modularAccountV2Factory'),
        abi: parseAbi(['function getAddressSemiModular(address owner, uint256 salt) view returns (address)']),
        functionName: 'getAddressSemiModular',
        args: [owner, 0n],
      }),
  },
  {
    // viem's own: a salt that starts with the owner (Solady's factory takes no other but zero, which anyone claims)
    type: 'SOLADY_V07',
    entryPoint: '0.7',
    factory: 'soladyAccountFactoryV07',
    activityName: 'Solady account',
    sdk: (client, owner) =>
      toSoladySmartAccount({ client, owner, salt: concat([owner.address, pad('0x00', { size: 12 })]) }),
  },
]

/**
 * The sandbox's account-zoo accounts on EntryPoint v0.7, driven as the console drives them: build, sponsor with
 * the dApp's paymaster, sign with the service-held key, send to the bundler (in safe mode), read the receipt. Each
 * must be the account permissionless builds for the same owner; Modular Account v2 the one its factory computes
 * (account-kit is not a dependency of this package).
 */
describe('sandbox account-zoo accounts on EntryPoint v0.7', () => {
  describeZooKinds(setup, kinds)
})
