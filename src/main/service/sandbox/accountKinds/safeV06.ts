import { entryPointV06 } from '../../entryPoint'
import { computeSafeAddress, encodeSafeCalls, safeDeploymentOf, safeModuleOf } from './safeAccount'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { readOperationV06 } from './signOperationV06'
import { signSafeOperationV06, toSafeModuleSignature } from './signSafeOperation'
import type { SandboxAccountKind } from './types'

const safeModule = safeModuleOf('V06')

/**
 * Safe 1.4.1 with the Safe4337Module v0.2.0 (EntryPoint v0.6), as permissionless' toSafeSmartAccount
 * (`version: '1.4.1'`, EntryPoint 0.6) builds it: the v0.7 Safe's proxy, singleton and calls with the v0.6
 * module, the owner signing that module's EIP-712 `SafeOp` (v0.6 fields).
 */
export const safeV06: SandboxAccountKind = {
  type: 'SAFE_V06',
  entryPoint: entryPointV06,
  getAddress: (chain, owner, index) => computeSafeAddress(chain, owner, index, safeModule),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeSafeCalls,
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...entryPointV06.deploymentFields(
        parts.deployed ? null : safeDeploymentOf(account.owner, account.index, safeModule),
      ),
      signature: toSafeModuleSignature(DUMMY_ECDSA_SIGNATURE),
    })
  },
  async signUserOperation(chain, account, input) {
    const { wire, op, userOpHash } = readOperationV06(chain, input)
    const signature = await signSafeOperationV06(chain, account.ownerPrivateKey, op)
    return { userOperation: { ...wire, signature }, userOpHash, signature }
  },
}
