import { concat, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV07 } from './defineEcdsaAccountV07'

const lightAccountFactoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])

/** LightAccount v2's signature type prefix: 0x00 is the owner EOA's ECDSA signature. */
const withEoaType = (signature: Hex): Hex => concat(['0x00', signature])

/**
 * Alchemy's LightAccount v2.0.0 (EntryPoint v0.7), as permissionless' toLightSmartAccount (`version: '2.0.0'`)
 * builds it: its factory's `createAccount(owner, index)`, `execute` / `executeBatch`, the owner signing the
 * userOpHash (EIP-191) behind the EOA signature type byte.
 */
export const lightAccountV2 = defineEcdsaAccountV07({
  type: 'LIGHT_ACCOUNT_V2',
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('lightAccountFactoryV2'),
      abi: lightAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, BigInt(index)],
    }),
  deploymentOf: (_chain, owner, index) => ({
    factory: getZooAddress('lightAccountFactoryV2'),
    factoryData: encodeFunctionData({
      abi: lightAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner, BigInt(index)],
    }),
  }),
  wrapSignature: withEoaType,
})
