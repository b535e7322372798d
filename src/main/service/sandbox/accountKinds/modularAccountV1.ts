import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'
import { encodeCallStructs } from './encodeCallStructs'

const multiOwnerFactoryAbi = parseAbi([
  'function createAccount(uint256 salt, address[] owners) returns (address)',
])

/** The factory call: `createAccount(salt = index, owners = [owner])` (the SDK's owners, sorted, are the signer alone). */
const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('multiOwnerModularAccountFactoryV1'),
  factoryData: encodeFunctionData({
    abi: multiOwnerFactoryAbi,
    functionName: 'createAccount',
    args: [BigInt(index), [owner]],
  }),
})

/**
 * Alchemy's Modular Account v1.0 (EntryPoint v0.6) with its MultiOwnerPlugin, as account-kit's
 * createMultiOwnerModularAccount builds it: the MultiOwnerModularAccountFactory's `createAccount(salt, owners)` (the
 * address from the EntryPoint's getSenderAddress), `execute` / `executeBatch(Call[])`, nonce key 0, the owner
 * signing the userOpHash (EIP-191) with nothing around it.
 */
export const modularAccountV1 = defineEcdsaAccountV06({
  type: 'MODULAR_ACCOUNT_V1',
  deploymentOf,
  encodeCalls: encodeCallStructs,
})
