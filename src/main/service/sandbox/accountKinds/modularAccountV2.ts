import { concat, encodeFunctionData, type Hex, parseAbi } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { getNonce } from '../../chain/entryPoint/getNonce'
import { entryPointV07 } from '../../entryPoint'
import { encodeCallStructs } from './encodeCallStructs'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const accountFactoryAbi = parseAbi([
  'function createSemiModularAccount(address owner, uint256 salt) returns (address)',
  'function getAddressSemiModular(address owner, uint256 salt) view returns (address)',
])

/**
 * The operation signature of the semi-modular account's own (fallback) signer: 0xff (no per-hook data segments:
 * the validation's own segment follows) ‖ 0x00 (signature type EOA) ‖ the owner's signature, as account-kit's
 * packUOSignature writes it.
 */
const withEoaSegment = (signature: Hex): Hex => concat(['0xff', '0x00', signature])

/**
 * The account reads its validation from the nonce key: entity id 0 (the owner, the fallback signer) << 8 | 0x01
 * (global validation), as account-kit's getNonce builds it.
 */
const NONCE_KEY = 1n

/**
 * Alchemy's Modular Account v2.0.0 (EntryPoint v0.7), the semi-modular account (its owner in the proxy's bytecode)
 * as account-kit's createModularAccountV2 builds it in its default mode: AccountFactory's
 * `createSemiModularAccount(owner, salt = index)`, `execute` / `executeBatch(Call[])`, the owner signing the
 * userOpHash (EIP-191) behind the validation-segment and EOA-type bytes.
 */
export const modularAccountV2: SandboxAccountKind = {
  type: 'MODULAR_ACCOUNT_V2',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('modularAccountV2Factory'),
      abi: accountFactoryAbi,
      functionName: 'getAddressSemiModular',
      args: [owner, BigInt(index)],
    }),
  isDeployed: (chain, account) => hasCode(chain, account.address),
  encodeCalls: encodeCallStructs,
  async buildUserOperation(chain, account, parts) {
    const nonce = await getNonce(chain, account.address, NONCE_KEY, entryPointV07.address)
    return draftOperation(
      account,
      { ...parts, nonce },
      {
        ...(parts.deployed
          ? {}
          : {
              factory: getZooAddress('modularAccountV2Factory'),
              factoryData: encodeFunctionData({
                abi: accountFactoryAbi,
                functionName: 'createSemiModularAccount',
                args: [account.owner, BigInt(account.index)],
              }),
            }),
        signature: withEoaSegment(DUMMY_ECDSA_SIGNATURE),
      },
    )
  },
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input, withEoaSegment),
}
