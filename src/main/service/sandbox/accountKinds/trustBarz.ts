import { type Address, encodeFunctionData, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { defineEcdsaAccountV06 } from './defineEcdsaAccountV06'

const barzFactoryAbi = parseAbi([
  'function createAccount(address verificationFacet, bytes owner, uint256 salt) returns (address)',
])

/** `createAccount(Secp256k1VerificationFacet, the owner's 20 address bytes, index)`, as the SDK writes it. */
const deploymentOf = (owner: Address, index: number) => ({
  factory: getZooAddress('trustFactory'),
  factoryData: encodeFunctionData({
    abi: barzFactoryAbi,
    functionName: 'createAccount',
    args: [getZooAddress('trustSecp256k1VerificationFacet'), owner, BigInt(index)],
  }),
})

/**
 * Trust Wallet's Barz (EntryPoint v0.6) with the Secp256k1 verification facet, as permissionless'
 * toTrustSmartAccount builds it: its factory's `createAccount` (the address from the EntryPoint's
 * getSenderAddress), `execute` / `executeBatch`, the owner signing the userOpHash (EIP-191). Its validation reads
 * storage of its DefaultFallbackHandler (ERC-7562 STO-033): a bundler in safe mode refuses it (see
 * SANDBOX_ACCOUNT_SAFE_MODE_REFUSALS).
 */
export const trustBarz = defineEcdsaAccountV06({ type: 'TRUST', deploymentOf })
