import type { Address, Hex } from 'viem'
import type { SandboxAccountType } from '../../../../shared/sandbox'
import type { Chain } from '../../chain/types'
import type { UserOperationV06 } from '../../entryPoint'
import { entryPointV06 } from '../../entryPoint'
import { encodeExecuteCalls } from './encodeExecuteCalls'
import { readSenderAddress } from './readSenderAddress'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { signOperationV06Message } from './signOperationV06'
import type { Call, SandboxAccountKind } from './types'

type Deployment = { factory: Address; factoryData: Hex }

/**
 * An EntryPoint v0.6 account deployed by a factory call and owned by one ECDSA key that signs the userOpHash
 * (EIP-191): LightAccount v1.1, Trust (Barz), thirdweb v0.6, Kernel v2, Modular Account v1 and the Coinbase Smart
 * Wallet differ only in their factory call, their call encoding, how the signature is wrapped, where the address is
 * read (thirdweb, Coinbase) and, for Coinbase, that the owner signs the bare hash.
 */
export function defineEcdsaAccountV06(options: {
  type: SandboxAccountType
  deploymentOf: (owner: Address, index: number) => Deployment
  /** Where the address comes from; by default the EntryPoint's getSenderAddress of the factory call. */
  getAddress?: (chain: Chain, owner: Address, index: number) => Promise<Address>
  encodeCalls?: (calls: Call[]) => Hex
  /** What the account expects around the owner's signature (Kernel v2's sudo mode prefix). */
  wrapSignature?: (signature: Hex) => Hex
  /**
   * For an account whose signature also carries fields of the operation (Modular Account v1 multisig's gas limits):
   * its dummy signature, and the signature built from the owner's and the operation. Replaces `wrapSignature`.
   */
  signatureWithOperation?: { dummy: Hex; wrap: (signature: Hex, op: UserOperationV06) => Hex }
  /** What the owner signs: the EIP-191 message of the userOpHash (default) or the userOpHash itself. */
  signs?: 'message' | 'hash'
}): SandboxAccountKind {
  const {
    type,
    deploymentOf,
    encodeCalls = encodeExecuteCalls,
    wrapSignature = (s: Hex) => s,
    signs = 'message',
    signatureWithOperation,
  } = options
  const dummySignature = signatureWithOperation?.dummy ?? wrapSignature(DUMMY_ECDSA_SIGNATURE)
  const wrap = signatureWithOperation?.wrap ?? wrapSignature
  const getAddress =
    options.getAddress ??
    ((chain: Chain, owner: Address, index: number) => {
      const { factory, factoryData } = deploymentOf(owner, index)
      return readSenderAddress(chain, entryPointV06.address, factory, factoryData)
    })
  return {
    type,
    entryPoint: entryPointV06,
    getAddress,
    isDeployed: (chain, account) => hasCode(chain, account.address),
    encodeCalls,
    async buildUserOperation(_chain, account, parts) {
      return draftOperation(account, parts, {
        ...entryPointV06.deploymentFields(parts.deployed ? null : deploymentOf(account.owner, account.index)),
        signature: dummySignature,
      })
    },
    signUserOperation: (chain, account, input) => signOperationV06Message(chain, account, input, wrap, signs),
  }
}
