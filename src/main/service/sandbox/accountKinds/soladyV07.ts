import { type Address, concat, encodeFunctionData, type Hex, numberToHex, pad, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV07 } from './defineEcdsaAccountV07'
import { encodeCallStructs } from './encodeCallStructs'

const soladyFactoryAbi = parseAbi([
  'function createAccount(address owner, bytes32 salt) payable returns (address)',
  'function getAddress(bytes32 salt) view returns (address)',
])

/**
 * The account's salt: Solady's factory takes only a salt that starts with the owner's address (or is zero, which
 * anyone may claim), so the owner's address followed by the account's index in 12 bytes, as a dApp passes it to
 * viem's toSoladySmartAccount (`salt`).
 */
const saltOf = (owner: Address, index: number): Hex => concat([owner, pad(numberToHex(index), { size: 12 })])

/**
 * viem's Solady account (EntryPoint v0.7, the factory toSoladySmartAccount defaults to), built as viem builds it:
 * its factory's `createAccount(owner, salt)` (the address from the factory's `getAddress(salt)`), `execute` /
 * `executeBatch(Call[])`, the owner signing the userOpHash (EIP-191).
 */
export const soladyV07 = defineEcdsaAccountV07({
  type: 'SOLADY_V07',
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('soladyAccountFactoryV07'),
      abi: soladyFactoryAbi,
      functionName: 'getAddress',
      args: [saltOf(owner, index)],
    }),
  deploymentOf: (_chain, owner, index) => ({
    factory: getZooAddress('soladyAccountFactoryV07'),
    factoryData: encodeFunctionData({
      abi: soladyFactoryAbi,
      functionName: 'createAccount',
      args: [owner, saltOf(owner, index)],
    }),
  }),
  encodeCalls: encodeCallStructs,
})
