import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'

const lightAccountFactoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
])

const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('lightAccountFactoryV1_1'),
  factoryData: encodeFunctionData({
    abi: lightAccountFactoryAbi,
    functionName: 'createAccount',
    args: [owner, BigInt(index)],
  }),
})

/**
 * Alchemy's LightAccount v1.1.0 (EntryPoint v0.6), as permissionless' toLightSmartAccount (`version: '1.1.0'`)
 * builds it: its factory's `createAccount(owner, index)` (the address from the EntryPoint's getSenderAddress),
 * `execute` / `executeBatch`, the owner signing the userOpHash (EIP-191) with no type byte (v2 adds one).
 */
export const lightAccountV1_1 = defineEcdsaAccountV06({ type: 'LIGHT_ACCOUNT_V1_1', deploymentOf })
