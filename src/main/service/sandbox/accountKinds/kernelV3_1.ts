import { type Address, concat, encodeFunctionData, type Hex, parseAbi, toHex, zeroAddress } from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import { getNonce } from '../../chain/entryPoint/getNonce'
import { entryPointV07 } from '../../entryPoint'
import { encodeErc7579Calls } from './encodeErc7579Calls'
import { signPackedOperationMessage } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import type { SandboxAccountKind } from './types'

const kernelAbi = parseAbi([
  'function initialize(bytes21 rootValidator, address hook, bytes validatorData, bytes hookData, bytes[] initConfig)',
])
const kernelFactoryAbi = parseAbi(['function getAddress(bytes data, bytes32 salt) view returns (address)'])
const kernelMetaFactoryAbi = parseAbi([
  'function deployWithFactory(address factory, bytes createData, bytes32 salt) payable returns (address)',
])

/** Kernel v3's ValidationId of a validator module: type 0x01 (validator) ‖ its address. */
const rootValidatorId = (): Hex => concat(['0x01', getZooAddress('kernelEcdsaValidatorV3_1')])

/** `initialize(rootValidator, no hook, validatorData = the owner's address, no hook data, no init config)`. */
const encodeKernelInitializer = (owner: Address): Hex =>
  encodeFunctionData({
    abi: kernelAbi,
    functionName: 'initialize',
    args: [rootValidatorId(), zeroAddress, owner, '0x', []],
  })

const saltOf = (index: number): Hex => toHex(BigInt(index), { size: 32 })

/**
 * The nonce key permissionless uses (the SDK's getNonceKeyWithEncoding): mode 0x00 (default) ‖ type 0x00
 * (root validator) ‖ the validator's address ‖ key 0x0000. Kernel reads the validator to use from it.
 */
const nonceKey = (): bigint => BigInt(concat(['0x0000', getZooAddress('kernelEcdsaValidatorV3_1'), '0x0000']))

/**
 * Kernel v3.1 with the ECDSA validator as its root validator (EntryPoint v0.7), as permissionless'
 * toKernelSmartAccount (`version: '0.3.1'`) builds it: deployed through ZeroDev's meta factory
 * (`deployWithFactory` of the v3.1 KernelFactory), ERC-7579 `execute`, the owner signing the userOpHash (EIP-191).
 */
export const kernelV3_1: SandboxAccountKind = {
  type: 'KERNEL_V3_1',
  entryPoint: entryPointV07,
  getAddress: (chain, owner, index) =>
    chain.publicClient.readContract({
      address: getZooAddress('kernelFactoryV3_1'),
      abi: kernelFactoryAbi,
      functionName: 'getAddress',
      args: [encodeKernelInitializer(owner), saltOf(index)],
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
              factory: getZooAddress('kernelMetaFactory'),
              factoryData: encodeFunctionData({
                abi: kernelMetaFactoryAbi,
                functionName: 'deployWithFactory',
                args: [
                  getZooAddress('kernelFactoryV3_1'),
                  encodeKernelInitializer(account.owner),
                  saltOf(account.index),
                ],
              }),
            }),
        signature: DUMMY_ECDSA_SIGNATURE,
      },
    )
  },
  // The ECDSA validator recovers the userOpHash, then its EIP-191 message; the SDK signs the latter.
  signUserOperation: (chain, account, input) =>
    signPackedOperationMessage(chain, entryPointV07, account, input),
}
