import { entryPointV07 } from '../../entryPoint'
import { readPackedOperation } from './readPackedOperation'
import { computeSafeAddress, encodeSafeCalls, safeDeploymentOf, safeModuleOf } from './safeAccount'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { signSafeOperationV07, toSafeModuleSignature } from './signSafeOperation'
import type { SandboxAccountKind } from './types'

const safeModule = safeModuleOf('V07')

/**
 * Safe 1.4.1 with the Safe4337Module v0.3.0 (EntryPoint v0.7), as permissionless' toSafeSmartAccount
 * (`version: '1.4.1'`) builds it: deployed by the SafeProxyFactory, calls through the module's
 * `executeUserOpWithErrorString`, the owner signing the module's EIP-712 `SafeOp`.
 */
export const safeV07: SandboxAccountKind = {
  type: 'SAFE_V07',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) => computeSafeAddress(chain, owner, index, safeModule),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeSafeCalls,
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...entryPointV07.deploymentFields(
        parts.deployed ? null : safeDeploymentOf(account.owner, account.index, safeModule),
      ),
      // Recovers a non-owner: Safe's checkSignatures reverts, which the module turns into SIG_VALIDATION_FAILED.
      signature: toSafeModuleSignature(DUMMY_ECDSA_SIGNATURE),
    })
  },
  async signUserOperation(chain, account, input) {
    const { op, userOpHash } = readPackedOperation(chain, entryPointV07, input)
    const signature = await signSafeOperationV07(chain, account.ownerPrivateKey, op)
    return { userOperation: entryPointV07.toWire({ ...op, signature }), userOpHash, signature }
  },
}
