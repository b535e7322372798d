import { concat, encodeFunctionData, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { getNonce } from '../../chain/entryPoint/getNonce'
import { entryPointV07 } from '../../entryPoint'
import { encodeErc7579Calls } from './encodeErc7579Calls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const k1ValidatorFactoryAbi = parseAbi([
  'function createAccount(address eoaOwner, uint256 index, address[] attesters, uint8 threshold) payable returns (address)',
  'function computeAccountAddress(address eoaOwner, uint256 index, address[] attesters, uint8 threshold) view returns (address)',
])

/**
 * Nexus reads the validator of an operation from its nonce key: key 0x000000 (3 bytes) ‖ mode 0x00 (validate) ‖
 * the K1 validator's address, as permissionless' getNonce builds it.
 */
const nonceKey = (): bigint => BigInt(concat(['0x00000000', getZooAddress('nexusK1Validator')]))

/**
 * Biconomy Nexus 1.0.0 with the K1 (ECDSA) validator (EntryPoint v0.7), as permissionless' toNexusSmartAccount
 * (`version: '1.0.0'`) builds it: the K1ValidatorFactory's `createAccount(owner, index, no attesters, 0)`, ERC-7579
 * `execute`, the owner signing the userOpHash (EIP-191).
 */
export const nexusV1: SandboxAccountKind = {
  type: 'NEXUS',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('nexusK1ValidatorFactory'),
      abi: k1ValidatorFactoryAbi,
      functionName: 'computeAccountAddress',
      args: [owner, BigInt(index), [], 0],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeErc7579Calls,
  async buildUserOperation(chain, account, parts) {
    const nonce = await getNonce(chain, account.address, nonceKey(), entryPointV07.address)
    return draftOperation(
      account,
      { ...parts, nonce },
      {
        ...(parts.deployed
          ? {}
          : {
              factory: getZooAddress('nexusK1ValidatorFactory'),
              factoryData: encodeFunctionData({
                abi: k1ValidatorFactoryAbi,
                functionName: 'createAccount',
                args: [account.owner, BigInt(account.index), [], 0],
              }),
            }),
        // 65 bytes like the real signature, so the estimate runs the K1 validator's two recoveries (permissionless'
        // longer stub skips them).
        signature: DUMMY_ECDSA_SIGNATURE,
      },
    )
  },
  // The K1 validator recovers the userOpHash, then its EIP-191 message; the SDK signs the latter.
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input),
}
