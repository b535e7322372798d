import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  type Hex,
  pad,
  parseAbi,
  parseSignature,
} from 'viem'
import type { SandboxAccountType } from '../../../../shared/sandbox'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'
import { encodeCallStructs } from './encodeCallStructs'
import type { SandboxAccountKind } from './types'

const walletFactoryAbi = parseAbi([
  'function createAccount(bytes[] owners, uint256 nonce) payable returns (address)',
  'function getAddress(bytes[] owners, uint256 nonce) view returns (address)',
])

/** The wallet's owners as the factory takes them: each EOA owner as 32 bytes (its address, left-padded). */
const ownersOf = (owner: Address): Hex[] => [pad(owner)]

/**
 * The wallet's signature: abi.encode(SignatureWrapper(ownerIndex 0, r ‖ s ‖ v)), as viem's wrapSignature writes
 * it for an EOA owner.
 */
function wrapSignature(signature: Hex): Hex {
  const { r, s, yParity } = parseSignature(signature)
  return encodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          { name: 'ownerIndex', type: 'uint8' },
          { name: 'signatureData', type: 'bytes' },
        ],
      },
    ],
    [
      {
        ownerIndex: 0,
        signatureData: encodePacked(['bytes32', 'bytes32', 'uint8'], [r, s, yParity === 0 ? 27 : 28]),
      },
    ],
  )
}

/**
 * Coinbase Smart Wallet (EntryPoint v0.6) with one EOA owner, as viem's toCoinbaseSmartAccount builds it for the
 * version whose factory is given: its factory's `createAccount(owners, nonce)` (the address from the factory's
 * `getAddress`), `execute` / `executeBatch`, the owner signing the raw userOpHash (no EIP-191 prefix), wrapped with
 * its owner index. v1 and v1.1 differ only in their contracts.
 */
function coinbaseSmartWallet(
  type: SandboxAccountType,
  factoryName: 'coinbaseSmartWalletFactoryV1' | 'coinbaseSmartWalletFactoryV1_1',
): SandboxAccountKind {
  return defineEcdsaAccountV06({
    type,
    deploymentOf: (owner, index) => ({
      factory: getZooAddress(factoryName),
      factoryData: encodeFunctionData({
        abi: walletFactoryAbi,
        functionName: 'createAccount',
        args: [ownersOf(owner), BigInt(index)],
      }),
    }),
    getAddress: (chain, owner, index) =>
      chain.publicClient.readContract({
        address: getZooAddress(factoryName),
        abi: walletFactoryAbi,
        functionName: 'getAddress',
        args: [ownersOf(owner), BigInt(index)],
      }),
    encodeCalls: encodeCallStructs,
    wrapSignature,
    signs: 'hash',
  })
}

/** viem's toCoinbaseSmartAccount `version: '1'`. */
export const coinbaseV1 = coinbaseSmartWallet('COINBASE_V1', 'coinbaseSmartWalletFactoryV1')
/** viem's toCoinbaseSmartAccount `version: '1.1'`. */
export const coinbaseV1_1 = coinbaseSmartWallet('COINBASE_V1_1', 'coinbaseSmartWalletFactoryV1_1')
