import { encodeFunctionData } from 'viem'
import { simpleAccountFactoryV07Artifact } from '../../chain/artifacts'
import { defineEcdsaAccountV07 } from './defineEcdsaAccountV07'

const factoryAbi = simpleAccountFactoryV07Artifact.abi

/**
 * SimpleAccount of EntryPoint v0.7 from its canonical factory (what permissionless' toSimpleSmartAccount uses); it
 * recovers the EIP-191 message of the userOpHash.
 */
export const simpleAccountV07 = defineEcdsaAccountV07({
  type: 'SIMPLE_ACCOUNT_V07',
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: chain.addresses.simpleAccountFactoryV07,
      abi: factoryAbi,
      functionName: 'getAddress',
      args: [owner, BigInt(index)],
    }),
  deploymentOf: (chain, owner, index) => ({
    factory: chain.addresses.simpleAccountFactoryV07,
    factoryData: encodeFunctionData({
      abi: factoryAbi,
      functionName: 'createAccount',
      args: [owner, BigInt(index)],
    }),
  }),
})
