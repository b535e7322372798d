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
import { privateKeyToAccount } from 'viem/accounts'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { entryPointV06 } from '../../entryPoint'
import { encodeCallStructs } from './encodeCallStructs'
import { DUMMY_ECDSA_SIGNATURE, deploymentFields, draftOperation, hasCode } from './shared'
import { readOperationV06 } from './signOperationV06'
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

const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('coinbaseSmartWalletFactoryV1'),
  factoryData: encodeFunctionData({
    abi: walletFactoryAbi,
    functionName: 'createAccount',
    args: [ownersOf(owner), BigInt(index)],
  }),
})

/**
 * Coinbase Smart Wallet v1 (EntryPoint v0.6) with one EOA owner, as viem's toCoinbaseSmartAccount
 * (`version: '1'`) builds it: its factory's `createAccount(owners, nonce)` (the address from the factory's
 * `getAddress`), `execute` / `executeBatch`, the owner signing the raw userOpHash (no EIP-191 prefix), wrapped
 * with its owner index.
 */
export const coinbaseV1: SandboxAccountKind = {
  type: 'COINBASE_V1',
  entryPoint: entryPointV06,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('coinbaseSmartWalletFactoryV1'),
      abi: walletFactoryAbi,
      functionName: 'getAddress',
      args: [ownersOf(owner), BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeCallStructs,
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...deploymentFields(entryPointV06, parts.deployed ? null : deploymentOf(account.owner, account.index)),
      signature: wrapSignature(DUMMY_ECDSA_SIGNATURE),
    })
  },
  async signUserOperation(chain, account, input) {
    const { wire, userOpHash } = readOperationV06(chain, input)
    const signature = wrapSignature(
      await privateKeyToAccount(account.ownerPrivateKey).sign({ hash: userOpHash }),
    )
    return { userOperation: { ...wire, signature }, userOpHash, signature }
  },
}
