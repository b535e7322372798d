import type { Address, Hex } from 'viem'
import type { SandboxAccountType } from '../../../../shared/sandbox'
import type { Chain } from '../../chain/types'
import { entryPointV07 } from '../../entryPoint'
import { encodeExecuteCalls } from './encodeExecuteCalls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { Call, SandboxAccountKind } from './types'

type Deployment = { factory: Address; factoryData: Hex }

/**
 * An EntryPoint v0.7 account deployed by a factory call, whose address its factory's view gives, and owned by one
 * ECDSA key that signs the userOpHash (EIP-191): SimpleAccount v0.7, LightAccount v2, thirdweb v0.7 and the Solady
 * account differ only in their factory, their call encoding and how the signature is wrapped.
 */
export function defineEcdsaAccountV07(options: {
  type: SandboxAccountType
  deploymentOf: (chain: Chain, owner: Address, index: number) => Deployment
  getAddress: (chain: Chain, owner: Address, index: number) => Promise<Address>
  encodeCalls?: (calls: Call[]) => Hex
  /** What the account expects around the owner's signature (LightAccount v2's signature type byte). */
  wrapSignature?: (signature: Hex) => Hex
}): SandboxAccountKind {
  const {
    type,
    deploymentOf,
    getAddress,
    encodeCalls = encodeExecuteCalls,
    wrapSignature = (s: Hex) => s,
  } = options
  return {
    type,
    entryPoint: entryPointV07,
    getAddress,
    isDeployed: (chain, account) => hasCode(chain, account.address),
    encodeCalls,
    async buildUserOperation(chain, account, parts) {
      return draftOperation(account, parts, {
        ...entryPointV07.deploymentFields(
          parts.deployed ? null : deploymentOf(chain, account.owner, account.index),
        ),
        signature: wrapSignature(DUMMY_ECDSA_SIGNATURE),
      })
    },
    signUserOperation: (chain, account, input) =>
      signPackedOperationMessage(chain, entryPointV07, account, input, wrapSignature),
  }
}
