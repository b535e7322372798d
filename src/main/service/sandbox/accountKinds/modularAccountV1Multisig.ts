import { type Address, concat, encodeFunctionData, type Hex, pad, parseAbi, toHex } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'
import { encodeCallStructs } from './encodeCallStructs'

const multisigFactoryAbi = parseAbi([
  'function createAccount(uint256 salt, address[] owners, uint128 threshold) returns (address)',
  'function getAddress(uint256 salt, address[] owners, uint128 threshold) view returns (address)',
])

/** One owner (the service-held key), threshold 1: each operation carries the one signature it needs. */
const THRESHOLD = 1n

const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('multisigModularAccountFactoryV1'),
  factoryData: encodeFunctionData({
    abi: multisigFactoryAbi,
    functionName: 'createAccount',
    args: [BigInt(index), [owner], THRESHOLD],
  }),
})

/**
 * The MultisigPlugin's signature: the upper limits of preVerificationGas, maxFeePerGas and maxPriorityFeePerGas the
 * signers agreed to (32 bytes each), then each signer's r ‖ s ‖ v. With every signature there at once (account-kit's
 * `userOpSignatureType: 'ACTUAL'`), the limits are the operation's own values, so what the owner signs is the
 * userOpHash (EIP-191).
 */
const withGasLimits = (
  signature: Hex,
  op: { preVerificationGas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
): Hex =>
  concat([
    pad(toHex(op.preVerificationGas)),
    pad(toHex(op.maxFeePerGas)),
    pad(toHex(op.maxPriorityFeePerGas)),
    signature,
  ])

/** account-kit's dummy for one signer: the highest limits, and a signature whose v (28 + 32) marks actual values. */
const DUMMY_SIGNATURE: Hex = `0x${'ff'.repeat(96)}fffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3c`

/**
 * Alchemy's Modular Account v1.0 (EntryPoint v0.6) with the MultisigPlugin, as account-kit's
 * createMultisigModularAccount builds it with one owner and threshold 1: the MultisigModularAccountFactory's
 * `createAccount(salt, owners, threshold)` (the address from its `getAddress`), `execute` /
 * `executeBatch(Call[])`, the owner's signature behind the operation's gas limits.
 */
export const modularAccountV1Multisig = defineEcdsaAccountV06({
  type: 'MODULAR_ACCOUNT_V1_MULTISIG',
  deploymentOf,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('multisigModularAccountFactoryV1'),
      abi: multisigFactoryAbi,
      functionName: 'getAddress',
      args: [BigInt(index), [owner], THRESHOLD],
    }),
  encodeCalls: encodeCallStructs,
  signatureWithOperation: { dummy: DUMMY_SIGNATURE, wrap: withGasLimits },
})
