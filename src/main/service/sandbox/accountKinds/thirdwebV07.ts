import { entryPointV07 } from '../../entryPoint'
import { encodeExecuteCalls } from './encodeExecuteCalls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, deploymentFields, draftOperation, hasCode } from './shared'
import { thirdwebFactory } from './thirdwebFactory'
import type { SandboxAccountKind } from './types'

const factory = thirdwebFactory('thirdwebFactoryV07')

/**
 * thirdweb's account 1.5.20 (EntryPoint v0.7), as permissionless' toThirdwebSmartAccount builds it: its factory's
 * `createAccount(owner, salt)`, `execute` / `executeBatch`, the owner (the account's admin) signing the userOpHash
 * (EIP-191).
 */
export const thirdwebV07: SandboxAccountKind = {
  type: 'THIRDWEB_V07',
  entryPoint: entryPointV07,
  getAddress: factory.getAddress,
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeExecuteCalls,
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...deploymentFields(
        entryPointV07,
        parts.deployed ? null : factory.deploymentOf(account.owner, account.index),
      ),
      signature: DUMMY_ECDSA_SIGNATURE,
    })
  },
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input),
}
