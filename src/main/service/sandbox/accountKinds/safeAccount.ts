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
import { encodeMultiSend } from './encodeMultiSend'
import type { Call } from './types'

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
 * The Safe4337Module of an EntryPoint version and the SafeModuleSetup that enables it: v0.2.0 for EntryPoint
 * v0.6 (`safe4337ModuleV06`, `safeModuleSetupV06`), v0.3.0 for v0.7.
 */
export type SafeModule = { module: Address; moduleSetup: Address }

export const safeModuleOf = (version: 'V06' | 'V07'): SafeModule => ({
  module: getZooAddress(`safe4337Module${version}`),
  moduleSetup: getZooAddress(`safeModuleSetup${version}`),
})

/**
 * Safe's `setup` for one owner (threshold 1), as permissionless' toSafeSmartAccount writes it: the Safe
 * delegatecalls MultiSend, which delegatecalls SafeModuleSetup's `enableModules([Safe4337Module])`, and the
 * module is also the fallback handler (the EntryPoint's validateUserOp reaches it through the Safe's fallback).
 */
function encodeSafeInitializer(owner: Address, { module, moduleSetup }: SafeModule): Hex {
  const enableModule = encodeMultiSend([
    {
      operation: 1,
      to: moduleSetup,
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
export async function computeSafeAddress(
  chain: Chain,
  owner: Address,
  index: number,
  safeModule: SafeModule,
): Promise<Address> {
  const factory = getZooAddress('safeProxyFactory')
  const creationCode = await chain.publicClient.readContract({
    address: factory,
    abi: safeProxyFactoryAbi,
    functionName: 'proxyCreationCode',
  })
  return getContractAddress({
    opcode: 'CREATE2',
    from: factory,
    salt: keccak256(
      concat([keccak256(encodeSafeInitializer(owner, safeModule)), toHex(BigInt(index), { size: 32 })]),
    ),
    bytecode: concat([creationCode, pad(getZooAddress('safeSingleton'), { size: 32 })]),
  })
}

/** The SafeProxyFactory's `createProxyWithNonce(singleton, initializer, index)`. */
export const safeDeploymentOf = (owner: Address, index: number, safeModule: SafeModule) => ({
  factory: getZooAddress('safeProxyFactory'),
  factoryData: encodeFunctionData({
    abi: safeProxyFactoryAbi,
    functionName: 'createProxyWithNonce',
    args: [getZooAddress('safeSingleton'), encodeSafeInitializer(owner, safeModule), BigInt(index)],
  }),
})

/**
 * One call: the module's `executeUserOpWithErrorString(to, value, data, 0)`. Several (or none, an empty batch: the
 * module accepts no other callData): a delegatecall (operation 1) of MultiSendCallOnly's `multiSend`, as the SDK
 * batches. The same in both module versions.
 */
export function encodeSafeCalls(calls: Call[]): Hex {
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
}
