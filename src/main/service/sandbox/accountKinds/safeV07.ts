import {
  type Address,
  concat,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
  parseAbi,
  toHex,
  zeroAddress,
} from 'viem'
import { getZooAddress } from '../../chain/accountZoo/zooContracts'
import type { Chain } from '../../chain/types'
import { entryPointV07 } from '../../entryPoint'
import { encodeMultiSend } from './encodeMultiSend'
import { readPackedOperation } from './readPackedOperation'
import { DUMMY_ECDSA_SIGNATURE, draftOperation, hasCode } from './shared'
import { signSafeOperation, toSafeModuleSignature } from './signSafeOperation'
import type { SandboxAccountKind } from './types'

const safeProxyFactoryAbi = parseAbi([
  'function createProxyWithNonce(address singleton, bytes initializer, uint256 saltNonce) returns (address proxy)',
  'function proxyCreationCode() pure returns (bytes)',
])
const safeAbi = parseAbi([
  'function setup(address[] owners, uint256 threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
])
const safeModuleSetupAbi = parseAbi(['function enableModules(address[] modules)'])
const safe4337ModuleAbi = parseAbi([
  'function executeUserOpWithErrorString(address to, uint256 value, bytes data, uint8 operation)',
])

/**
 * Safe's `setup` for one owner (threshold 1), as permissionless' toSafeSmartAccount writes it: the Safe
 * delegatecalls MultiSend, which delegatecalls SafeModuleSetup's `enableModules([Safe4337Module])`, and the
 * module is also the fallback handler (the EntryPoint's validateUserOp reaches it through the Safe's fallback).
 */
function encodeSafeInitializer(owner: Address): Hex {
  const module = getZooAddress('safe4337ModuleV07')
  const enableModule = encodeMultiSend([
    {
      operation: 1,
      to: getZooAddress('safeModuleSetupV07'),
      value: 0n,
      data: encodeFunctionData({ abi: safeModuleSetupAbi, functionName: 'enableModules', args: [[module]] }),
    },
  ])
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'setup',
    args: [[owner], 1n, getZooAddress('safeMultiSend'), enableModule, module, zeroAddress, 0n, zeroAddress],
  })
}

/**
 * The proxy `createProxyWithNonce(singleton, initializer, index)` creates: CREATE2 from the factory with salt
 * keccak256(keccak256(initializer) ‖ saltNonce) over the factory's own `proxyCreationCode()` ‖ singleton.
 */
async function computeSafeAddress(chain: Chain, owner: Address, index: number): Promise<Address> {
  const factory = getZooAddress('safeProxyFactory')
  const creationCode = await chain.publicClient.readContract({
    address: factory,
    abi: safeProxyFactoryAbi,
    functionName: 'proxyCreationCode',
  })
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(concat([keccak256(encodeSafeInitializer(owner)), toHex(BigInt(index), { size: 32 })])),
    bytecode: concat([creationCode, pad(getZooAddress('safeSingleton'), { size: 32 })]),
  })
}

/**
 * Safe 1.4.1 with the Safe4337Module v0.3.0 (EntryPoint v0.7), as permissionless' toSafeSmartAccount
 * (`version: '1.4.1'`) builds it: deployed by the SafeProxyFactory, calls through the module's
 * `executeUserOpWithErrorString`, the owner signing the module's EIP-712 `SafeOp`.
 */
export const safeV07: SandboxAccountKind = {
  type: 'SAFE_V07',
  entryPoint: entryPointV07,
  getAddress: computeSafeAddress,
  isDeployed: (chain, account) => hasCode(chain, account.address),
  /**
   * One call: `executeUserOpWithErrorString(to, value, data, 0)`. Several (or none, an empty batch: the module
   * accepts no other callData): a delegatecall (operation 1) of MultiSendCallOnly's `multiSend`, as the SDK batches.
   */
  encodeCalls(calls) {
    const call = calls.length === 1 ? calls[0] : undefined
    const args = call
      ? ([call.to, call.value, call.data, 0] as const)
      : ([
          getZooAddress('safeMultiSendCallOnly'),
          0n,
          encodeMultiSend(calls.map((c) => ({ ...c, operation: 0 }))),
          1,
        ] as const)
    return encodeFunctionData({ abi: safe4337ModuleAbi, functionName: 'executeUserOpWithErrorString', args })
  },
  async buildUserOperation(_chain, account, parts) {
    return draftOperation(account, parts, {
      ...(parts.deployed
        ? {}
        : {
            factory: getZooAddress('safeProxyFactory'),
            factoryData: encodeFunctionData({
              abi: safeProxyFactoryAbi,
              functionName: 'createProxyWithNonce',
              args: [
                getZooAddress('safeSingleton'),
                encodeSafeInitializer(account.owner),
                BigInt(account.index),
              ],
            }),
          }),
      // Recovers a non-owner: Safe's checkSignatures reverts, which the module turns into SIG_VALIDATION_FAILED.
      signature: toSafeModuleSignature(DUMMY_ECDSA_SIGNATURE),
    })
  },
  async signUserOperation(chain, account, input) {
    const { op, userOpHash } = readPackedOperation(chain, entryPointV07, input)
    const signature = await signSafeOperation(chain, account.ownerPrivateKey, op)
    return { userOperation: entryPointV07.toWire({ ...op, signature }), userOpHash, signature }
  },
}
