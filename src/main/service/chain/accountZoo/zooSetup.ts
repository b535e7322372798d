import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { canonicalAddresses } from '../constants'
import { getZooAddress } from './zooContracts'

/**
 * The state the accounts' operators gave their contracts on mainnet after deploying them, which a deployment alone
 * does not recreate.
 */

/** ZeroDev's owner of the Kernel v2 factory and the Kernel v3 meta factory (their constructor argument). */
const KERNEL_FACTORY_OWNER: Address = '0x9775137314fE595c943712B0b336327dfa80aE8A'

const kernelFactoryAbi = parseAbi([
  'function setImplementation(address implementation, bool allow)',
  'function approveFactory(address factory, bool approval)',
])

export type ZooOwnerCall = {
  /** Runs when any of these contracts was deployed by this start. */
  after: readonly string[]
  from: Address
  /** A zoo contract's name. */
  to: string
  data: `0x${string}`
}

/** Kernel's factories only create accounts of implementations (v2) and factories (v3) their owner allowed. */
export const zooOwnerCalls: readonly ZooOwnerCall[] = [
  ...['kernelV2_1', 'kernelV2_2', 'kernelV2_3', 'kernelV2_4'].map((implementation) => ({
    after: ['kernelFactoryV2', implementation],
    from: KERNEL_FACTORY_OWNER,
    to: 'kernelFactoryV2',
    data: encodeFunctionData({
      abi: kernelFactoryAbi,
      functionName: 'setImplementation',
      args: [getZooAddress(implementation), true],
    }),
  })),
  ...['kernelFactoryV3_0', 'kernelFactoryV3_1', 'kernelFactoryV3_2', 'kernelFactoryV3_3'].map((factory) => ({
    after: ['kernelMetaFactory', factory],
    from: KERNEL_FACTORY_OWNER,
    to: 'kernelMetaFactory',
    data: encodeFunctionData({
      abi: kernelFactoryAbi,
      functionName: 'approveFactory',
      args: [getZooAddress(factory), true],
    }),
  })),
]

export type ZooStake = { factory: string; entryPoint: Address }

/**
 * Factories staked on their EntryPoint, as their operators stake them on mainnet: each keeps storage of its own
 * (an allow-list, a registry of accounts, an owner), which ERC-7562 lets only a staked factory touch.
 * Safe's proxy factory has no owner and no stake anywhere; it needs none.
 */
export const zooStakes: readonly ZooStake[] = [
  { factory: 'kernelFactoryV2', entryPoint: canonicalAddresses.entryPoint },
  { factory: 'kernelMetaFactory', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'lightAccountFactoryV1_1', entryPoint: canonicalAddresses.entryPoint },
  { factory: 'lightAccountFactoryV2', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'trustFactory', entryPoint: canonicalAddresses.entryPoint },
  { factory: 'etherspotWalletFactory', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'etherspotWalletFactoryV1', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'thirdwebFactoryV06', entryPoint: canonicalAddresses.entryPoint },
  { factory: 'thirdwebFactoryV07', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'nexusK1ValidatorFactory', entryPoint: canonicalAddresses.entryPointV07 },
  { factory: 'nexusV1_2AccountFactory', entryPoint: canonicalAddresses.entryPointV07 },
  // Alchemy's: v1's initializes the account's MultiOwnerPlugin, storage associated with the account in another
  // contract, which ERC-7562 allows during deployment only with a staked factory [STO-022].
  { factory: 'multiOwnerModularAccountFactoryV1', entryPoint: canonicalAddresses.entryPoint },
  // v1's multisig factory initializes the account's MultisigPlugin the same way (staked on mainnet too).
  { factory: 'multisigModularAccountFactoryV1', entryPoint: canonicalAddresses.entryPoint },
  { factory: 'modularAccountV2Factory', entryPoint: canonicalAddresses.entryPointV07 },
]
