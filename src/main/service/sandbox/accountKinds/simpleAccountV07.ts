import { encodeFunctionData } from 'viem'
import { simpleAccountFactoryV07Artifact } from '../../chain/artifacts'
import { entryPointV07 } from '../../entryPoint'
import { encodeExecuteCalls } from './encodeExecuteCalls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const factoryAbi = simpleAccountFactoryV07Artifact.abi

/** SimpleAccount of EntryPoint v0.7 from its canonical factory (what permissionless' toSimpleSmartAccount uses). */
export const simpleAccountV07: SandboxAccountKind = {
  type: 'SIMPLE_ACCOUNT_V07',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: chain.addresses.simpleAccountFactoryV07,
      abi: factoryAbi,
      functionName: 'getAddress',
      args: [owner, BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeExecuteCalls,
  async buildUserOperation(chain, account, parts) {
    return draftOperation(account, parts, {
      ...(parts.deployed
        ? {}
        : {
            factory: chain.addresses.simpleAccountFactoryV07,
            factoryData: encodeFunctionData({
              abi: factoryAbi,
              functionName: 'createAccount',
              args: [account.owner, BigInt(account.index)],
            }),
          }),
      signature: DUMMY_ECDSA_SIGNATURE,
    })
  },
  // SimpleAccount v0.7 recovers the EIP-191 message of the userOpHash.
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input),
}
