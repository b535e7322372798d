import { concat, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { entryPointV07 } from '../../entryPoint'
import { encodeExecuteCalls } from './encodeExecuteCalls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const lightAccountFactoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])
const _lightAccountAbi = parseAbi([
  'function execute(address dest, uint256 value, bytes func)',
  'function executeBatch(address[] dest, uint256[] value, bytes[] func)',
])

/** LightAccount v2's signature type prefix: 0x00 is the owner EOA's ECDSA signature. */
const withEoaType = (signature: Hex): Hex => concat(['0x00', signature])

/**
 * Alchemy's LightAccount v2.0.0 (EntryPoint v0.7), as permissionless' toLightSmartAccount (`version: '2.0.0'`)
 * builds it: its factory's `createAccount(owner, index)`, `execute` / `executeBatch`, the owner signing the
 * userOpHash (EIP-191) behind the EOA signature type byte.
 */
export const lightAccountV2: SandboxAccountKind = {
  type: 'LIGHT_ACCOUNT_V2',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('lightAccountFactoryV2'),
      abi: lightAccountFactoryAbi,
      functionName: 'getAddress',
      args: [owner, BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeExecuteCalls,
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...(parts.deployed
        ? {}
        : {
            factory: getZooAddress('lightAccountFactoryV2'),
            factoryData: encodeFunctionData({
              abi: lightAccountFactoryAbi,
              functionName: 'createAccount',
              args: [account.owner, BigInt(account.index)],
            }),
          }),
      signature: withEoaType(DUMMY_ECDSA_SIGNATURE),
    })
  },
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input, withEoaType),
}
